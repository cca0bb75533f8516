import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact } from '../../purge/artifact.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { tableColumns, tableNames } from '../../sqlite/schema.js';
import { grokBuckets } from './grok-session-dirs.js';
import { grokParents } from './grok-parents.js';
import { readRegularFile } from '../common/read-regular.js';

/** Prompt history is capped at 10,000 entries by grok; a file far beyond that is listed unchecked rather than read. */
const MAX_CHECKED = 64 * 1024 * 1024;

async function fileNaming(fs: FileSystemPort, path: string, id: string): Promise<Artifact | null> {
  const read = await readRegularFile(fs, path, MAX_CHECKED);
  if (read.kind === 'missing') return null;
  // A file too large or not regular cannot be checked: it is named, not hidden.
  if (read.kind === 'problem') return read.problem.startsWith('is larger') ? { kind: 'file', path } : null;
  return read.text.toLowerCase().includes(id) ? { kind: 'file', path } : null;
}

async function worktreeRows(fs: FileSystemPort, dbPath: string, id: string): Promise<Artifact | null> {
  const kind = await fs.lstat(dbPath).then((s) => s.kind, () => null);
  if (kind !== 'file') return null;
  try {
    return await withReadonlyDb(dbPath, { fs }, (h) => {
      if (!tableNames(h.db).includes('worktrees') || !tableColumns(h.db, 'worktrees').includes('session_id')) return null;
      const count = h.db.prepare('SELECT count(*) FROM worktrees WHERE lower(session_id) = ?').pluck().get(id) as number;
      return count > 0 ? { kind: 'rows' as const, db: dbPath, table: 'worktrees', column: 'session_id', count } : null;
    });
  } catch {
    return null;
  }
}

/**
 * Grok's shared records that still name the canonical id and are never removed or rewritten: each bucket's
 * `prompt_history.jsonl`, `active_sessions.json`, `worktrees.db` rows (the worktree checkout is the user's work), and for
 * a subagent child (`parentLinks`) its parent's `subagents/<id>/` and `updates.jsonl` (the parent conversation's own record). Never throws.
 * @public
 */
export async function grokMentions(fs: FileSystemPort, root: string, id: string, parentLinks: boolean): Promise<Artifact[]> {
  const sessions = join(root, 'sessions');
  const out: Array<Artifact | null> = [];
  for (const b of await grokBuckets(fs, sessions)) if (!b.link) out.push(await fileNaming(fs, join(b.path, 'prompt_history.jsonl'), id));
  out.push(await fileNaming(fs, join(root, 'active_sessions.json'), id));
  out.push(await worktreeRows(fs, join(root, 'worktrees.db'), id));
  if (parentLinks) {
    for (const p of await grokParents(fs, sessions, id)) {
      out.push({ kind: 'dir', path: join(p.dir, 'subagents', id) }, await fileNaming(fs, join(p.dir, 'updates.jsonl'), id));
    }
  }
  return out.filter((a): a is Artifact => a !== null);
}
