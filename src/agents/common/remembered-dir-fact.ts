import { join } from 'node:path';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { factCacheOf, settled, statStamp } from '../../cache/fact-cache.js';
import type { FactClock } from './remembered-fact.js';

/**
 * The `lstat` of a directory, or null when nothing is there, undefined when the look failed otherwise (a batch shares one
 * look of each directory: take it before any read it vouches for).
 * @public
 */
export type DirLook = (dir: string) => Promise<FileStat | null | undefined>;

// What a fact of a directory's entries was read under (the directory's stamp is the entry's own), and the value.
interface Entry {
  present: Array<{ name: string; stamp: string }>;
  value: unknown;
}

// The fact cache's space of directory facts (per file-system port; src/cache/fact-cache.ts has the rule).
const SPACE = 'dir-fact';

/**
 * A {@link DirLook} over `fs`: each directory looked at once for the life of the returned function (one batch).
 * @public
 */
export function dirLookOf(fs: FileSystemPort): DirLook {
  const seen = new Map<string, Promise<FileStat | null | undefined>>();
  return (dir) => {
    let p = seen.get(dir);
    if (p === undefined) seen.set(dir, (p = lstatOrNull(fs, dir).catch(() => undefined)));
    return p;
  };
}

/**
 * What `read` says of the entries `names` of the directory `dir`, remembered for the port under `key`: under the
 * directory's `lstat` (whose mtime moves whenever an entry is created, removed or renamed in it, so it vouches that the
 * names found absent are still absent, without a failed look at each) and the `lstat` of each name that was present —
 * all taken BEFORE `read`. A later call with the same stamps gets the remembered value without `read` and without a look at
 * the absent names; `read` is given the looks it may rely on (each name's `lstat`, null for nothing there; undefined
 * where none was taken). A value is remembered only when the directory is a real directory (or nothing is there), every present
 * name is a regular file, and every look has settled by `now`; any change reads afresh, and without `now` nothing is
 * remembered. A rejection of `read` is passed on and remembers nothing.
 * @public
 */
export async function rememberedDirFact<T>(
  fs: FileSystemPort,
  key: string,
  dir: string,
  names: readonly string[],
  now: FactClock | undefined,
  read: (looks: ReadonlyArray<FileStat | null | undefined>) => Promise<T>,
  look: DirLook = dirLookOf(fs),
): Promise<T> {
  if (now === undefined) return read([]);
  const d = await look(dir);
  const cache = factCacheOf(fs);
  const hit = d === undefined ? undefined : cache.get<Entry>(SPACE, key, statStamp(d))?.value;
  if (hit !== undefined) {
    const again = await Promise.all(hit.present.map((p) => lstatOrNull(fs, join(dir, p.name)).catch(() => undefined)));
    if (again.every((s, i) => s !== undefined && statStamp(s) === hit.present[i]?.stamp)) return hit.value as T;
  }
  cache.forget(SPACE, key);
  // A directory that is no real one, or has not settled, vouches for nothing: read without the looks no memory needs.
  if (d === undefined || (d !== null && d.kind !== 'dir') || !settled([d], now())) return read([]);
  const stats = await Promise.all(names.map((n) => lstatOrNull(fs, join(dir, n)).catch(() => undefined)));
  const value = await read(stats);
  const plain = stats.every((s) => s === null || s?.kind === 'file');
  if (plain) {
    const present = names.flatMap((name, i) => (stats[i] === null ? [] : [{ name, stamp: statStamp(stats[i] as FileStat) }]));
    cache.remember<Entry>({ space: SPACE, key, looks: [d, ...(stats as Array<FileStat | null>)], now: now(), value: { present, value }, stamp: statStamp(d) });
  }
  return value;
}
