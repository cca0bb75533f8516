import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { codexDbs, type CodexDb } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import type { ReadonlyDb } from '../../sqlite/open-readonly.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import { factCacheOf, statStamp } from '../../cache/fact-cache.js';
import type { StateClock } from '../../sqlite/state-clock.js';

// The clock type has a neutral home (Hermes uses it too); Codex's modules still name it from here.
export type { StateClock } from '../../sqlite/state-clock.js';

// The fact cache's space of state database listings (per file-system port, keyed by the home's database dirs).
const SPACE = 'codex.state-dbs';


// Looks a caller took of a home's database directories, for that home object's next withStateDbs (taken once).
const takenLooks = new WeakMap<CodexHome, Promise<Array<FileStat | null>>>();

/**
 * The `lstat`s of the home's database directories (null where nothing is there), taken now — through `look` where it
 * takes one (the home proof's) — and used by the next {@link withStateDbs} of this same `home` object instead of its
 * own: a caller that needs them does not look twice.
 */
export function lookDbDirs(fs: FileSystemPort, home: CodexHome, look: (dir: string) => Promise<FileStat | null> | undefined = () => undefined): Promise<Array<FileStat | null>> {
  const looks = Promise.all(home.dbDirs.map((d) => look(d) ?? lstatOrNull(fs, d)));
  looks.catch(() => undefined);
  takenLooks.set(home, looks);
  return looks;
}

async function dirStamp(fs: FileSystemPort, home: CodexHome): Promise<{ stamp: string; stats: Array<FileStat | null> }> {
  const taken = takenLooks.get(home);
  takenLooks.delete(home);
  const stats = await (taken ?? Promise.all(home.dbDirs.map((d) => lstatOrNull(fs, d))));
  return { stamp: stats.map(statStamp).join('|'), stats };
}

/**
 * The `lstat` of one of the home's database directories, taken as a call on its databases starts (null where it failed):
 * the opener's look at that directory (see `OpenReadonlyOptions.dirLook`), so it is not taken twice.
 * @public
 */
export type DbDirLook = (root: string) => Promise<FileStat | null> | undefined;

function dirLooks(home: CodexHome, looks: Promise<{ stats: Array<FileStat | null> } | null>): DbDirLook {
  return (root) => {
    const i = home.dbDirs.indexOf(root);
    return i < 0 ? undefined : looks.then((d) => d?.stats[i] ?? null);
  };
}

/**
 * Runs `fn` on the state databases of the home: from the listing remembered for this port while the database
 * directories' `lstat` (device, inode, size, mtime) is unchanged — the check runs while `fn` reads, and on a change `fn`
 * runs again on a fresh listing — else from a fresh listing ({@link codexDbs}). A listing is remembered only when each
 * entry is a regular file (a link's target can change without its directory) and the directories have settled. `fn`
 * is also given those directories' `lstat`s of this call ({@link DbDirLook}).
 * @public
 */
export async function withStateDbs<T>(fs: FileSystemPort, home: CodexHome, now: StateClock | undefined, fn: (dbs: CodexDb[], dirLook: DbDirLook) => Promise<T>): Promise<T> {
  if (now === undefined) return fn((await codexDbs(fs, home)).filter((d) => d.state), () => undefined);
  const key = home.dbDirs.join('\0');
  const cache = factCacheOf(fs);
  const hit = cache.peek<CodexDb[]>(SPACE, key);
  if (hit !== undefined) {
    const looks = dirStamp(fs, home);
    const check = looks.then((d) => d.stamp === hit.stamp, () => false);
    const out = await fn(hit.value, dirLooks(home, looks.catch(() => null)));
    if (await check) return out;
    cache.forget(SPACE, key);
  }
  const [before, all] = await Promise.all([dirStamp(fs, home).catch(() => null), codexDbs(fs, home)]);
  const dbs = all.filter((d) => d.state);
  const plain = await Promise.all(dbs.map(async (d) => (await lstatOrNull(fs, d.path).catch(() => null))?.kind === 'file'));
  if (before !== null && plain.every(Boolean)) cache.remember({ space: SPACE, key, looks: before.stats, now: now(), value: dbs, stamp: before.stamp });
  return fn(dbs, dirLooks(home, Promise.resolve(before)));
}
