import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { factCacheOf, statStamp } from '../../cache/fact-cache.js';
import type { StateClock } from '../../sqlite/state-clock.js';

/**
 * Reads the clock (epoch ms, the ports' clock); with it a fact read from files may be remembered, without it none is —
 * the same clock the store probes take (`StateClock`).
 * @public
 */
export type FactClock = StateClock;

// The fact cache's space of facts read from files (per file-system port; src/cache/fact-cache.ts has the rule).
const SPACE = 'file-fact';

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
  const cache = factCacheOf(fs);
  const hit = cache.get<T>(SPACE, key, stamp);
  if (hit !== undefined) return hit.value;
  let value: T;
  try {
    value = await read();
  } catch (err) {
    cache.forget(SPACE, key);
    throw err;
  }
  cache.remember({ space: SPACE, key, looks: stats, now: now(), value, stamp });
  return value;
}
