import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { tableColumns, tableNames } from '../../sqlite/schema.js';
import { describeError } from '../../errors.js';
import { listDirOrNull } from '../common/read-regular.js';
import { grokSearchLayout } from './grok-search-layout.js';

/** `session_search.sqlite`, or `session_search.h-<host>.sqlite` on a network file system (`xai-sqlite-journal`). */
const SEARCH_DB = /^session_search(\.h-[^/\0]+)?\.sqlite$/;

/**
 * The search databases under `sessions/`: the regular files to read, and those refused (a link or another kind of file
 * under a search database's name is never opened).
 * @public
 */
export interface GrokSearchDbs {
  /** Regular files named like a search database. */
  dbs: string[];
  /** Entries named like one that are not regular files. */
  refused: LeftArtifact[];
}

/**
 * Lists the search databases of a `sessions/` dir. Never throws.
 * @public
 */
export async function grokSearchDbs(fs: FileSystemPort, sessionsDir: string): Promise<GrokSearchDbs> {
  const out: GrokSearchDbs = { dbs: [], refused: [] };
  for (const e of (await listDirOrNull(fs, sessionsDir)) ?? []) {
    if (!SEARCH_DB.test(e.name)) continue;
    const path = join(sessionsDir, e.name);
    if (e.kind === 'file') out.dbs.push(path);
    else out.refused.push({ kind: e.kind === 'symlink' ? 'link' : 'file', path, reason: 'a search database that is not a regular file: not opened' });
  }
  out.dbs.sort();
  return out;
}

/**
 * What one search database holds of a set of sessions: the `session_docs` rows (a `rows` artifact, count > 0), or why
 * they cannot be purged (an unknown layout, an unreadable file) with what could be counted.
 * @public
 */
export type GrokSearchRows = { kind: 'rows'; rows: Artifact | null } | { kind: 'refused'; left: LeftArtifact };

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/**
 * Counts the `session_docs` rows naming any of `ids`, read through the read-only opener (the four WAL states leave the
 * directory as found). Never throws.
 * @public
 */
export async function grokSearchRows(fs: FileSystemPort, dbPath: string, ids: readonly string[]): Promise<GrokSearchRows> {
  if (ids.length === 0) return { kind: 'rows', rows: null };
  try {
    return await withReadonlyDb(dbPath, { fs }, (h): GrokSearchRows => {
      // Without session_docs(session_id) the file holds no row of a session (and nothing is written to it).
      if (!tableNames(h.db).includes('session_docs') || !tableColumns(h.db, 'session_docs').includes('session_id')) return { kind: 'rows', rows: null };
      const layout = grokSearchLayout(h.db);
      const count = h.db.prepare(`SELECT count(*) FROM session_docs WHERE lower(session_id) IN (${placeholders(ids.length)})`).pluck().get(...ids) as number;
      if (count === 0) return { kind: 'rows', rows: null };
      const rows: Artifact = { kind: 'rows', db: dbPath, table: 'session_docs', column: 'session_id', count };
      return layout.kind === 'known' ? { kind: 'rows', rows } : { kind: 'refused', left: { ...rows, reason: `unknown search database layout (${layout.reason}): not purged` } };
    });
  } catch (err) {
    return { kind: 'refused', left: { kind: 'file', path: dbPath, reason: `search database unreadable (${describeError(err)})` } };
  }
}
