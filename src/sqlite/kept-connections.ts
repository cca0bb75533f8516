import type Database from './driver.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';
import { settled, statStamp } from './remembered-probe.js';

/** The looks the opener takes of a database before opening it: the file's own `lstat` and its three sidecars'. */
export interface OpenLooks {
  /** The file's `lstat`. */
  file: FileStat;
  /** The `-wal`, `-shm` and `-journal` `lstat`s, null where absent. */
  sidecars: readonly [FileStat | null, FileStat | null, FileStat | null];
}

interface Kept {
  db: Database.Database;
  stamp: string;
}

interface Pool {
  now: () => number;
  // Insertion order is use order: the first entry is the least recently parked.
  byPath: Map<string, Kept>;
}

// A few per port: a status names each agent's stores once, agy one database per conversation.
const MAX_KEPT = 16;
const pools = new WeakMap<FileSystemPort, Pool>();

function stampOf(looks: OpenLooks): string {
  return [looks.file, ...looks.sidecars].map(statStamp).join('|');
}

/**
 * Lets read-only connections opened on `fs` live between calls: `now` is the real clock of the same machine as the disk
 * `fs` reads (only the real ports register, see `nodePorts`), which the settle rule needs to trust an `lstat` stamp.
 */
export function keepConnections(fs: FileSystemPort, now: () => number): void {
  if (!pools.has(fs)) pools.set(fs, { now, byPath: new Map() });
}

/**
 * The clock reading to take just before the looks of an open (NaN when `fs` keeps no connections): a stamp is trusted
 * only if it was settled when it was taken, not merely by the time the connection is parked.
 */
export function lookTime(fs: FileSystemPort): number {
  return pools.get(fs)?.now() ?? Number.NaN;
}

/**
 * The connection kept for `path` when the looks just taken show the file and its sidecars exactly as when it was kept
 * (device, inode, size, mtime of each; a sidecar still absent), taken out of the pool for the caller; null otherwise, and
 * a kept connection the looks no longer match is closed.
 */
export function takeKept(fs: FileSystemPort, path: string, looks: OpenLooks): Database.Database | null {
  const pool = pools.get(fs);
  const kept = pool?.byPath.get(path);
  if (pool === undefined || kept === undefined) return null;
  pool.byPath.delete(path);
  if (kept.stamp === stampOf(looks) && kept.db.open) return kept.db;
  kept.db.close();
  return null;
}

/**
 * Closes the connection kept for `path` on `fs` (the file could not be looked at, or no longer looks like one to keep);
 * null, the connection a caller then does not have.
 */
export function dropKept(fs: FileSystemPort, path: string): null {
  const pool = pools.get(fs);
  const kept = pool?.byPath.get(path);
  if (pool === undefined || kept === undefined) return null;
  pool.byPath.delete(path);
  if (kept.db.open) kept.db.close();
  return null;
}

/**
 * Keeps an immutable read-only connection of `path` for a later call instead of closing it, when `fs` keeps connections
 * and the looks taken before its open (at `lookedAt`, see {@link lookTime}) are of a regular file and were settled then
 * (every mtime older than the settle time, so a later change cannot leave the stamp as it was); closes it otherwise, or
 * when another one is kept for the path already. The oldest kept connection is closed past a few per port.
 */
export function parkOrClose(fs: FileSystemPort, path: string, db: Database.Database, looks: OpenLooks | undefined, lookedAt: number): void {
  const pool = pools.get(fs);
  if (!db.open) return;
  if (pool === undefined || looks === undefined || looks.file.kind !== 'file' || pool.byPath.has(path) || !settled([looks.file, ...looks.sidecars], lookedAt)) {
    db.close();
    return;
  }
  pool.byPath.set(path, { db, stamp: stampOf(looks) });
  for (const [p, k] of pool.byPath) {
    if (pool.byPath.size <= MAX_KEPT) break;
    pool.byPath.delete(p);
    if (k.db.open) k.db.close();
  }
}

/**
 * Closes every connection kept on `fs`: before anything writes to or removes an agent's store, so no connection of
 * this process outlives the files it was opened on.
 */
export function releaseKept(fs: FileSystemPort): void {
  const pool = pools.get(fs);
  if (pool === undefined) return;
  for (const k of pool.byPath.values()) if (k.db.open) k.db.close();
  pool.byPath.clear();
}

/** How many connections are kept on `fs` (for tests). */
export function keptCount(fs: FileSystemPort): number {
  return pools.get(fs)?.byPath.size ?? 0;
}
