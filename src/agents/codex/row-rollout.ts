import { join } from 'node:path';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { isInside } from '../../paths/is-inside.js';
import type { CodexHome } from './codex-home.js';
import { checkRollout } from './rollout-check.js';
import { rolloutNameId } from './rollout-name.js';
import { staleRecordedPath } from './moved-home.js';
import type { ThreadRow } from './thread-query.js';

// Below the root (not the root itself): a plain prefix test for a path with no `.`/`..` segment or doubled slash (as
// Codex records them), else the normalizing comparison.
function underRoot(root: string, path: string): boolean {
  if (path.length > root.length + 1 && path.startsWith(root) && path[root.length] === '/' && !/\/\.{0,2}(\/|$)|\0/.test(path)) return true;
  return isInside(root, path) && path !== root && path !== `${root}/`;
}

/**
 * What one `lstat` of a row's recorded rollout tells: `file` (its mtime: the row is answered, no head read), `missing`
 * (the recorded path is stale), or `ask` (the DB cannot answer alone: a path outside the home, a name without the id,
 * a link or another kind of file — its head is read as before).
 * @public
 */
export type RowRollout = { kind: 'file'; mtimeMs: number } | { kind: 'missing' } | { kind: 'ask' };

const ASK: RowRollout = Object.freeze({ kind: 'ask' });
const MISSING: RowRollout = Object.freeze({ kind: 'missing' });

/**
 * Looks at a `threads` row's rollout with one `lstat` and no read: a non-empty regular file inside the home's rollout
 * roots whose name carries the row's id answers for the row (the row vouches for its cwd and its `source`; the name for
 * the id). An empty file is no conversation (its head says nothing), as when the head was read. Never rejects.
 * @public
 */
export function lstatRowRollout(fs: FileSystemPort, home: CodexHome, row: Pick<ThreadRow, 'id' | 'rolloutPath'>): Promise<RowRollout | null> {
  const path = row.rolloutPath;
  const inside = underRoot(home.sessions, path) || underRoot(home.archived, path);
  if (!inside || rolloutNameId(path) !== row.id) return Promise.resolve(ASK);
  // One promise chain per row (discovery looks at hundreds at once); a port that throws instead of rejecting is caught too.
  let look: Promise<FileStat>;
  try {
    look = fs.lstat(path);
  } catch {
    return Promise.resolve(MISSING);
  }
  return look.then(
    (st) => (st.kind !== 'file' ? ASK : st.size > 0 ? { kind: 'file', mtimeMs: st.mtimeMs } : null),
    () => MISSING,
  );
}

/**
 * The same place under this home for a recorded path of another (moved or copied) home: its tail from the last
 * `sessions/` or `archived_sessions/` segment, rooted here; null when the path has neither.
 * @public
 */
export function rerootedPath(home: CodexHome, path: string): string | null {
  const parts = path.split('/');
  for (let i = parts.length - 2; i >= 0; i -= 1) {
    const root = parts[i] === 'sessions' ? home.sessions : parts[i] === 'archived_sessions' ? home.archived : null;
    if (root !== null) return join(root, ...parts.slice(i + 1));
  }
  return null;
}

/**
 * The mtime of the rollout that proves a `threads` row of the workspace (or null): one `lstat` where the DB answers;
 * else the recorded rollout's head; for a stale path, the same place under this home, then every rollout of its id found
 * by name (`byName`, one listing of the home made only when needed) — each by its head. `looked`: what
 * {@link lstatRowRollout} already said of the row.
 * @public
 */
export async function rowRolloutMtime(
  fs: FileSystemPort,
  home: CodexHome,
  row: ThreadRow,
  cwds: ReadonlySet<string>,
  byName: () => Promise<readonly string[]>,
  looked?: RowRollout | null,
): Promise<number | null> {
  const quick = looked === undefined ? await lstatRowRollout(fs, home, row) : looked;
  if (quick === null) return null;
  if (quick.kind === 'file') return quick.mtimeMs;
  if (quick.kind === 'ask') {
    const mtime = await checkRollout(fs, row.rolloutPath, row.id, cwds, true);
    if (mtime !== null || !(await staleRecordedPath(fs, home, row.rolloutPath))) return mtime;
  }
  const again = rerootedPath(home, row.rolloutPath);
  if (again !== null && again !== row.rolloutPath && rolloutNameId(again) === row.id) {
    const mtime = await checkRollout(fs, again, row.id, cwds, true);
    if (mtime !== null) return mtime;
  }
  for (const path of await byName()) {
    const mtime = await checkRollout(fs, path, row.id, cwds, true);
    if (mtime !== null) return mtime;
  }
  return null;
}
