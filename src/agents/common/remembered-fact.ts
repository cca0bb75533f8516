import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { settled, statStamp } from '../../sqlite/remembered-probe.js';
import type { StateClock } from '../../sqlite/state-clock.js';

/**
 * Reads the clock (epoch ms, the ports' clock); with it a fact read from files may be remembered, without it none is —
 * the same clock the store probes take (`StateClock`).
 * @public
 */
export type FactClock = StateClock;

// Facts kept per port at most: past it the oldest remembered is dropped (a bound on memory, never on correctness).
const MAX_FACTS = 20_000;

// Per file-system port (a fake and the real disk never share): fact key → the stamp it was read under and the value.
const memory = new WeakMap<FileSystemPort, Map<string, { stamp: string; value: unknown }>>();

/**
 * What `read` says of some files, remembered for the port `fs` under `key` and the `lstat`s `stats` of those files, taken
 * BEFORE `read` looks at them (null for nothing there): a later call with the same stamps (kind, device, inode, size,
 * mtime of each) gets the remembered value without running `read`. A value is remembered only when every look has
 * settled by `now` (see `settled`); any change of any file (appended, rewritten, replaced, swapped for a link, removed,
 * created) reads afresh, and without `now` nothing is remembered. A rejection of `read` is passed on and remembers nothing.
 * @public
 */
export async function rememberedFact<T>(
  fs: FileSystemPort,
  key: string,
  stats: ReadonlyArray<FileStat | null>,
  now: FactClock | undefined,
  read: () => Promise<T>,
): Promise<T> {
  if (now === undefined) return read();
  const stamp = stats.map(statStamp).join('|');
  let mem = memory.get(fs);
  if (mem === undefined) memory.set(fs, (mem = new Map()));
  const hit = mem.get(key);
  if (hit !== undefined && hit.stamp === stamp) return hit.value as T;
  let value: T;
  try {
    value = await read();
  } catch (err) {
    mem.delete(key);
    throw err;
  }
  mem.delete(key);
  if (settled(stats, now())) {
    mem.set(key, { stamp, value });
    if (mem.size > MAX_FACTS) mem.delete(mem.keys().next().value as string);
  }
  return value;
}
