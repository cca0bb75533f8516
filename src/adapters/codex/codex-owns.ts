import { join } from 'node:path';
import { isPortError } from '../../errors.js';
import type { DirEntry, FileSystemPort } from '../../ports/fs.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { inspectDb } from './inspect-db.js';
import { rolloutNameId } from './rollout-name.js';
import { rowsNaming } from './rows-naming.js';
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

/**
 * Whether the Codex home has any artifact of the canonical id, from by-id lookups only: the databases' rows of the id,
 * its writer lock, its shell snapshots, and its rollout looked for by name in the date dirs of the id's own (v7) time and
 * in `archived_sessions` — never a walk of every rollout. Null when that cannot tell (an id that is no v7 uuid, a database
 * or dir that cannot be read, a dir laid out otherwise than Codex does): the caller then looks everywhere.
 * @public
 */
export async function codexOwns(fs: FileSystemPort, home: CodexHome, id: string): Promise<boolean | null> {
  if (id[14] !== '7') return null;
  const ms = Number.parseInt(`${id.slice(0, 8)}${id.slice(9, 13)}`, 16);
  if (!Number.isFinite(ms)) return null;
  const dbs = await Promise.all((await codexDbs(fs, home)).map((d) => inspectDb(fs, d, id)));
  if (dbs.some((i) => !i.ok)) return null;
  if (dbs.some((i) => i.ok && i.rows.length > 0)) return true;
  const rows = await rowsNaming(fs, { dbs }, id, (i) => i.columns.owned);
  if (rows.notes.length > 0) return null;
  if (rows.rows.length > 0) return true;
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
