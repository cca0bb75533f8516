import type { FileStat, FileSystemPort } from '../ports/fs.js';

/**
 * How long a look must be old before what it vouches for is remembered: a change made within the same timestamp tick as
 * the look (coarse kernel clocks tick every few ms, some file systems every 2 s) would otherwise leave the stamp
 * unchanged and the memory stale for good.
 */
export const SETTLED_MS = 3000;

// Entries kept per space of one port at most: past it the oldest is dropped (a bound on memory, never on correctness).
const MAX_ENTRIES = 20_000;

/**
 * The part of a stamp one `lstat` gives (kind, device, inode, size, mtime, and the status-change time where the port
 * gives one, which a restored mtime does not bring back; `-` for nothing there).
 */
export function statStamp(s: FileStat | null): string {
  return s === null ? '-' : `${s.kind}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs ?? ''}`;
}

/** True when every look is older than {@link SETTLED_MS} by the clock reading `now` (nothing there counts as settled). */
export function settled(stats: ReadonlyArray<FileStat | null>, now: number): boolean {
  return Number.isFinite(now) && stats.every((s) => s === null || (Number.isFinite(s.mtimeMs) && s.mtimeMs <= now - SETTLED_MS));
}

/**
 * One fact to remember: under `key` of `space`, read from files whose `lstat`s (`looks`, taken BEFORE the read) give
 * its stamp (or `stamp`, when the caller builds it from those looks itself).
 * @public
 */
export interface FactEntry<T> {
  /** Which kind of fact (`claude.head-cwd`, `codex.state-dbs` …): spaces never share keys. */
  space: string;
  /** The fact's key in its space (usually a path). */
  key: string;
  /** The `lstat`s the fact was read under (null: nothing there). */
  looks: ReadonlyArray<FileStat | null>;
  /** The ports' clock now, epoch ms (NaN or absent: nothing is remembered). */
  now: number | undefined;
  /** The value read. */
  value: T;
  /** The stamp, when not the looks' own (`statStamp` of each, joined). */
  stamp?: string;
}

/**
 * The one cache of facts read from an agent's files, per file-system port (a fake and the real disk never share one).
 * Its one rule: **a fact is remembered under the `lstat` stamp of the files it was read from, once those looks have
 * settled** (older than {@link SETTLED_MS} by the ports' clock), and answered again only while a fresh look gives the
 * same stamp — any change (appended, rewritten, replaced, swapped for a link, removed, created) reads afresh; without a
 * clock nothing is remembered; a read that fails remembers nothing. `setFactCaching(fs, false)` turns it off.
 * @public
 */
export interface FactCache {
  /** False when turned off ({@link setFactCaching}): nothing is remembered or answered from memory. */
  readonly enabled: boolean;
  /** The value remembered in `space` under `key`, when it was remembered under `stamp` (else undefined; a stale entry is dropped). */
  get<T>(space: string, key: string, stamp: string): { value: T } | undefined;
  /** The entry remembered in `space` under `key` with its stamp, for a cache that checks its stamp by further looks. */
  peek<T>(space: string, key: string): { stamp: string; value: T } | undefined;
  /** Remembers the fact when every look has settled (see the rule above); otherwise forgets the key. True when remembered. */
  remember<T>(entry: FactEntry<T>): boolean;
  /** Forgets one fact. */
  forget(space: string, key: string): void;
  /** Forgets every fact of this port. */
  clear(): void;
}

const caches = new WeakMap<FileSystemPort, FactCache>();

function newCache(): FactCache & { enabled: boolean } {
  const spaces = new Map<string, Map<string, { stamp: string; value: unknown }>>();
  const space = (name: string): Map<string, { stamp: string; value: unknown }> => {
    let m = spaces.get(name);
    if (m === undefined) spaces.set(name, (m = new Map()));
    return m;
  };
  const cache = {
    enabled: true,
    get<T>(s: string, key: string, stamp: string): { value: T } | undefined {
      if (!cache.enabled) return undefined;
      const m = spaces.get(s);
      const hit = m?.get(key);
      if (hit === undefined) return undefined;
      if (hit.stamp === stamp) return { value: hit.value as T };
      m?.delete(key);
      return undefined;
    },
    peek<T>(s: string, key: string): { stamp: string; value: T } | undefined {
      if (!cache.enabled) return undefined;
      return spaces.get(s)?.get(key) as { stamp: string; value: T } | undefined;
    },
    remember<T>(e: FactEntry<T>): boolean {
      const m = space(e.space);
      m.delete(e.key);
      if (!cache.enabled || e.now === undefined || !settled(e.looks, e.now)) return false;
      m.set(e.key, { stamp: e.stamp ?? e.looks.map(statStamp).join('|'), value: e.value });
      if (m.size > MAX_ENTRIES) m.delete(m.keys().next().value as string);
      return true;
    },
    forget(s: string, key: string): void {
      spaces.get(s)?.delete(key);
    },
    clear(): void {
      spaces.clear();
    },
  };
  return cache;
}

/**
 * The fact cache of a file-system port (made on first use, kept as long as the port lives).
 * @public
 */
export function factCacheOf(fs: FileSystemPort): FactCache {
  let c = caches.get(fs);
  if (c === undefined) caches.set(fs, (c = newCache()));
  return c;
}

/**
 * Turns the fact cache of a file-system port on or off (off forgets everything remembered): with it off, every call
 * reads the agent's files afresh — for a test that wants no memory between calls, or a store on a file system whose
 * stamps cannot be trusted.
 * @example
 * ```ts
 * const ports = nodePorts();
 * setFactCaching(ports.fs, false);
 * ```
 * @public
 */
export function setFactCaching(fs: FileSystemPort, enabled: boolean): void {
  const c = factCacheOf(fs) as FactCache & { enabled: boolean };
  c.enabled = enabled;
  if (!enabled) c.clear();
}
