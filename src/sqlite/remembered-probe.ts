import type { FileSystemPort } from '../ports/fs.js';
import type { ReadonlyDb } from './readonly-handle.js';
import { factCacheOf, statStamp } from '../cache/fact-cache.js';

// The stamp and settle rule live with the fact cache (src/cache/fact-cache.ts); their former home re-exports them.
export { settled, statStamp } from '../cache/fact-cache.js';

// The fact cache's space of database probes (per file-system port, keyed by path).
const SPACE = 'sqlite.probe';

/**
 * What `read` says of the database at `path`, remembered for this port under the `lstat`s the read-only opener took of
 * the file and its sidecars before the open (`ReadonlyDb.stats`): a later call with the same stamp gets the remembered
 * answer without running `read`; any change of the file or a sidecar, an unsettled stamp or no stats read afresh.
 * @public
 */
export function rememberedProbe<T>(fs: FileSystemPort, path: string, h: ReadonlyDb, now: (() => number) | undefined, read: () => T): T {
  if (now === undefined || h.stats === undefined) return read();
  const all = [h.stats.file, ...h.stats.sidecars];
  const stamp = all.map(statStamp).join('|');
  const cache = factCacheOf(fs);
  const hit = cache.get<T>(SPACE, path, stamp);
  if (hit !== undefined) return hit.value;
  const value = read();
  if (h.stats.file.kind === 'file') cache.remember({ space: SPACE, key: path, looks: all, now: now(), value, stamp });
  else cache.forget(SPACE, path);
  return value;
}
