import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { type GrokSessionDir, grokBuckets, grokChildIds, grokIdDirs } from './grok-session-dirs.js';
import { grokSearchDbs, grokSearchRows } from './grok-search-db.js';
import { deadCopyArtifacts } from '../../sqlite/finish-dead-copies.js';

/** More sessions than this under one conversation is not a tree grok writes: the rest is not followed. */
const MAX_TREE = 4096;

/**
 * Everything of one conversation under a grok home, and what is refused: the survey purge, residual and hasArtifacts
 * share.
 * @public
 */
export interface GrokSurvey {
  /** Grok's home. */
  root: string;
  /** The id, then every subagent descendant found through `subagents/<child>/meta.json` (any bucket, recursively). */
  ids: string[];
  /** The session dirs in removal order: descendants before their parent (a failure keeps the parent that finds them). */
  dirs: GrokSessionDir[];
  /** `relocations/<id>.json|.lock` of every id. */
  files: Artifact[];
  /**
   * `session_docs` rows naming any of the ids, per search database; where none does, the old copies of deleted rows still
   * in a database's bytes (grok writes without `secure_delete`; a purge interrupted after its delete leaves them too).
   */
  rows: Artifact[];
  /** What is named by the ids but not touched, with why (rows of an unknown search layout included). */
  refused: LeftArtifact[];
  /** Places that could not be checked (a search database unreadable or not a regular file, a linked `sessions/`): they may still hold something of the ids. */
  dbRefused: LeftArtifact[];
  /** The search databases (for the in-use hints and the notes). */
  searchDbs: string[];
  /** Whether the id's own summary says it is a subagent child. */
  subagent: boolean;
}

async function relocationFiles(fs: FileSystemPort, root: string, ids: readonly string[]): Promise<{ files: Artifact[]; refused: LeftArtifact[] }> {
  const files: Artifact[] = [];
  const refused: LeftArtifact[] = [];
  for (const id of ids) {
    for (const name of [`${id}.json`, `${id}.lock`]) {
      const path = join(root, 'relocations', name);
      const kind = await fs.lstat(path).then((s) => s.kind, () => null);
      if (kind === 'file') files.push({ kind: 'file', path });
      else if (kind === 'symlink') files.push({ kind: 'link', path });
      else if (kind !== null) refused.push({ kind: 'file', path, reason: 'not a regular file: not removed' });
    }
  }
  return { files, refused };
}

/**
 * Surveys a canonical id under grok's home `root`; `rows: false` skips the search databases (the in-use check needs only
 * the session dirs, and a database in the `walonly` state is read through a private copy). Never throws (an unreadable
 * place finds nothing there).
 * @public
 */
export async function surveyGrok(fs: FileSystemPort, root: string, id: string, opts: { rows?: boolean } = {}): Promise<GrokSurvey> {
  const sessions = join(root, 'sessions');
  // A linked sessions/ is not grok's own tree: nothing behind it is listed, and the survey says so.
  if ((await fs.lstat(sessions).then((st) => st.kind, () => null)) === 'symlink') {
    const unchecked: LeftArtifact[] = [{ kind: 'link', path: sessions, reason: 'sessions/ is a symbolic link: not followed' }];
    const reloc = await relocationFiles(fs, root, [id]);
    return { root, ids: [id], dirs: [], files: reloc.files, rows: [], refused: reloc.refused, dbRefused: unchecked, searchDbs: [], subagent: false };
  }
  const buckets = await grokBuckets(fs, sessions);
  const seen = new Set<string>();
  const dirs: GrokSessionDir[] = [];
  const refused: LeftArtifact[] = [];
  let subagent = false;
  const visit = async (sid: string, isChild: boolean): Promise<void> => {
    if (seen.has(sid) || seen.size >= MAX_TREE) return;
    seen.add(sid);
    const found = await grokIdDirs(fs, buckets, sid, isChild);
    if (!isChild) subagent = found.subagent === true;
    refused.push(...found.refused);
    for (const d of found.dirs) {
      if (d.kind !== 'dir') continue;
      for (const child of await grokChildIds(fs, d.path)) await visit(child, true);
    }
    dirs.push(...found.dirs);
  };
  await visit(id, false);
  const ids = [...seen];
  const reloc = await relocationFiles(fs, root, ids);
  const search = opts.rows === false ? { dbs: [], refused: [] } : await grokSearchDbs(fs, sessions);
  const rows: Artifact[] = [];
  const dbRefused: LeftArtifact[] = [...search.refused];
  for (const db of search.dbs) {
    const r = await grokSearchRows(fs, db, ids);
    if (r.kind === 'refused') (r.left.kind === 'rows' ? refused : dbRefused).push(r.left);
    else if (r.rows !== null) rows.push(r.rows);
    else rows.push(...(await deadCopyArtifacts(fs, db, ids)));
  }
  return { root, ids, dirs, files: reloc.files, rows, refused: [...refused, ...reloc.refused], dbRefused, searchDbs: search.dbs, subagent };
}
