import { join } from 'node:path';
import { isPortError } from '../../errors.js';
import type { DirEntry, FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { type CodexDb, codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { ownsRows } from './owns-query.js';
import { rolloutNameId } from './rollout-name.js';
import { isSnapshotOf } from './snapshot-name.js';

// A rollout lies in sessions/YYYY/MM/DD of its start in the machine's local time: for any zone (UTC−12 … UTC+14) one of
// the UTC dates of the id's v7 time shifted by those offsets.
const ZONES_MS = [-12 * 3_600_000, 0, 14 * 3_600_000];

type Listing = DirEntry[] | 'missing' | 'unreadable';

async function list(fs: FileSystemPort, dir: string): Promise<Listing> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    return isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory') ? 'missing' : 'unreadable';
  }
}

const dirLike = (e: DirEntry): boolean => e.kind === 'dir' || e.kind === 'symlink';

// 'found' when the listing holds the id's rollout; 'odd' when it holds what only the full walk may look into.
function look(entries: DirEntry[], id: string, sub: RegExp | null): 'found' | 'odd' | 'none' {
  let odd = false;
  for (const e of entries) {
    if (rolloutNameId(e.name) === id && !dirLike(e)) return 'found';
    if (dirLike(e) && (sub === null || !sub.test(e.name))) odd = true;
  }
  return odd ? 'odd' : 'none';
}

async function rolloutByDate(fs: FileSystemPort, home: CodexHome, id: string, ms: number): Promise<boolean | null> {
  const archived = await list(fs, home.archived);
  if (archived === 'unreadable') return null;
  if (archived !== 'missing') {
    const a = look(archived, id, null);
    if (a !== 'none') return a === 'found' ? true : null;
  }
  const days = [...new Set(ZONES_MS.map((z) => new Date(ms + z).toISOString().slice(0, 10)))].map((d) => d.split('-') as [string, string, string]);
  const levels: Array<[string, RegExp | null]> = [[home.sessions, /^\d{4}$/]];
  for (const [y, m, d] of days) levels.push([join(home.sessions, y), /^\d{2}$/], [join(home.sessions, y, m), /^\d{2}$/], [join(home.sessions, y, m, d), null]);
  for (const [dir, sub] of [...new Map(levels.map((l) => [l[0], l])).values()]) {
    const entries = await list(fs, dir);
    if (entries === 'unreadable') return null;
    if (entries === 'missing') continue;
    const r = look(entries, id, sub);
    if (r !== 'none') return r === 'found' ? true : null;
  }
  return false;
}

type DbAnswer = { found: boolean; trusted: boolean } | null;

// One read-only look per database (the scope's connection when there is one): its rows of the id by index, never a
// PRAGMA per table once its schema was seen. Null when it cannot be read.
async function dbOwns(fs: FileSystemPort, db: CodexDb, id: string): Promise<DbAnswer> {
  try {
    return await withReadonlyDb(db.path, { fs }, ({ db: conn }) => ownsRows(conn, db.state, id));
  } catch {
    return null;
  }
}

/**
 * Whether the Codex home has any artifact of the canonical id, from by-id lookups only: each database's rows the id owns
 * (the `threads` row by its primary key, every other thread-id column by equality — through Codex's index on it where
 * it keeps one — rollout-path rows naming its rollout, sub-agent threads naming it as parent), its writer lock, its
 * shell snapshots, and its rollout looked for by name in the date dirs of the id's own (v7) time and in
 * `archived_sessions` — never a walk of every rollout. Null when that cannot tell (an id that is no v7 uuid, a database
 * or dir that cannot be read, a dir laid out otherwise than Codex does, or — when nothing was found — no state database
 * that lists every thread, where only the rollouts' heads could name a sub-agent of it): the caller then looks
 * everywhere.
 * @public
 */
export async function codexOwns(fs: FileSystemPort, home: CodexHome, id: string): Promise<boolean | null> {
  if (id[14] !== '7') return null;
  const ms = Number.parseInt(`${id.slice(0, 8)}${id.slice(9, 13)}`, 16);
  if (!Number.isFinite(ms)) return null;
  const dbs = await codexDbs(fs, home);
  const answers = await Promise.all(dbs.map((d) => dbOwns(fs, d, id)));
  if (answers.some((a) => a === null)) return null;
  if (answers.some((a) => a?.found === true)) return true;
  const states = answers.filter((a, i) => a !== null && dbs[i]?.state === true);
  if (states.length === 0 || states.some((a) => a?.trusted !== true)) return null;
  const lock = await fs.lstat(join(home.locks, `${id}.lock`)).then(
    () => true,
    (err: unknown) => (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory') ? false : null),
  );
  if (lock !== false) return lock;
  const snaps = await list(fs, home.snapshots);
  if (snaps === 'unreadable') return null;
  if (snaps !== 'missing' && snaps.some((e) => isSnapshotOf(e.name, id))) return true;
  return rolloutByDate(fs, home, id, ms);
}
