import type { FileStat, FileSystemPort } from '../ports/fs.js';
import type { ReadonlyDb } from './readonly-handle.js';

// A file or directory is remembered only once its mtime is this much older than the clock: a change made within the
// same timestamp tick as the look (coarse kernel clocks tick every few ms, some file systems every 2 s) would otherwise
// leave the stamp unchanged and the memory stale for good.
const SETTLED_MS = 3000;

/**
 * The part of a stamp one `lstat` gives (kind, device, inode, size, mtime, and the status-change time where the port
 * gives one, which a restored mtime does not bring back; `-` for nothing there).
 */
export function statStamp(s: FileStat | null): string {
  return s === null ? '-' : `${s.kind}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs ?? ''}`;
}

/** True when every look is older than the settle time by the clock reading `now` (nothing there counts as settled). */
export function settled(stats: ReadonlyArray<FileStat | null>, now: number): boolean {
  return Number.isFinite(now) && stats.every((s) => s === null || (Number.isFinite(s.mtimeMs) && s.mtimeMs <= now - SETTLED_MS));
}

// Per file-system port (a fake and the real disk never share), per key.
const probes = new WeakMap<FileSystemPort, Map<string, { stamp: string; value: unknown }>>();

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
  let mem = probes.get(fs);
  if (mem === undefined) probes.set(fs, (mem = new Map()));
  const hit = mem.get(path);
  if (hit !== undefined && hit.stamp === stamp) return hit.value as T;
  const value = read();
  if (h.stats.file.kind === 'file' && settled(all, now())) mem.set(path, { stamp, value });
  else mem.delete(path);
  return value;
}
