import { join } from 'node:path';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { settled, statStamp } from '../../sqlite/remembered-probe.js';
import type { FactClock } from './remembered-fact.js';

/**
 * The `lstat` of a directory, or null when nothing is there, undefined when the look failed otherwise (a batch shares one
 * look of each directory: take it before any read it vouches for).
 * @public
 */
export type DirLook = (dir: string) => Promise<FileStat | null | undefined>;

// Facts kept per port at most: past it the oldest remembered is dropped (a bound on memory, never on correctness).
const MAX_FACTS = 20_000;

interface Entry {
  dir: string;
  present: Array<{ name: string; stamp: string }>;
  value: unknown;
}

// Per file-system port (a fake and the real disk never share): fact key → what it was read under and the value.
const memory = new WeakMap<FileSystemPort, Map<string, Entry>>();

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
  let mem = memory.get(fs);
  if (mem === undefined) memory.set(fs, (mem = new Map()));
  const hit = mem.get(key);
  if (d !== undefined && hit !== undefined && hit.dir === statStamp(d)) {
    const again = await Promise.all(hit.present.map((p) => lstatOrNull(fs, join(dir, p.name)).catch(() => undefined)));
    if (again.every((s, i) => s !== undefined && statStamp(s) === hit.present[i]?.stamp)) return hit.value as T;
  }
  mem.delete(key);
  // A directory that is no real one, or has not settled, vouches for nothing: read without the looks no memory needs.
  if (d === undefined || (d !== null && d.kind !== 'dir') || !settled([d], now())) return read([]);
  const stats = await Promise.all(names.map((n) => lstatOrNull(fs, join(dir, n)).catch(() => undefined)));
  const value = await read(stats);
  const plain = stats.every((s) => s === null || s?.kind === 'file');
  if (plain && settled([d, ...(stats as Array<FileStat | null>)], now())) {
    const present = names.flatMap((name, i) => (stats[i] === null ? [] : [{ name, stamp: statStamp(stats[i] as FileStat) }]));
    mem.set(key, { dir: statStamp(d), present, value });
    if (mem.size > MAX_FACTS) mem.delete(mem.keys().next().value as string);
  }
  return value;
}
