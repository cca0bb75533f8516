import type Database from './driver.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';
import { settled, statStamp } from '../cache/fact-cache.js';

/** The looks the opener takes of a database before opening it: the file's own `lstat` and its three sidecars'. */
export interface OpenLooks {
  /** The file's `lstat`. */
  file: FileStat;
  /** The `-wal`, `-shm` and `-journal` `lstat`s, null where absent. */
  sidecars: readonly [FileStat | null, FileStat | null, FileStat | null];
}

interface Kept {
  db: Database.Database;
  // The looks it was kept under, and their stamp.
  looks: OpenLooks;
  stamp: string;
  // The stamp of the file's directory, when it was looked at with the file and had settled: while it is the same, no
  // entry was made or removed beside the file since (a -wal or -journal appearing changes it), see takeKeptByDir.
  dir: string | null;
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
 * Whether a connection is kept for `path` under a directory stamp, so that the opener's two looks (the directory and
 * the file, see {@link takeKeptByDir}) can stand for its four.
 */
export function keptUnderDir(fs: FileSystemPort, path: string): boolean {
  const kept = pools.get(fs)?.byPath.get(path);
  return kept !== undefined && kept.dir !== null;
}

/**
 * The connection kept for `path`, with the sidecar looks it was kept under, when `dir` (an `lstat` of the file's
 * directory) and `file` (the file's own) show both exactly as when it was kept: no entry was made or removed in the
 * directory since — no sidecar appeared or went — and the file is the same. Taken out of the pool for the caller; null
 * otherwise, the kept one left for the full look ({@link takeKept}) to judge.
 */
export function takeKeptByDir(fs: FileSystemPort, path: string, dir: FileStat | null, file: FileStat): { db: Database.Database; sidecars: OpenLooks['sidecars'] } | null {
  const pool = pools.get(fs);
  const kept = pool?.byPath.get(path);
  if (pool === undefined || kept === undefined || kept.dir === null || dir === null || dir.kind !== 'dir') return null;
  if (kept.dir !== statStamp(dir) || statStamp(kept.looks.file) !== statStamp(file) || !kept.db.open) return null;
  pool.byPath.delete(path);
  return { db: kept.db, sidecars: kept.looks.sidecars };
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
 * when another one is kept for the path already. The oldest kept connection is closed past a few per port. `dir`, the
 * `lstat` of the file's directory taken with the looks, is kept with it when it had settled by `lookedAt` too: a later
 * open then needs only that look and the file's ({@link takeKeptByDir}).
 */
export function parkOrClose(fs: FileSystemPort, path: string, db: Database.Database, looks: OpenLooks | undefined, lookedAt: number, dir?: FileStat | null): void {
  const pool = pools.get(fs);
  if (!db.open) return;
  if (pool === undefined || looks === undefined || looks.file.kind !== 'file' || pool.byPath.has(path) || !settled([looks.file, ...looks.sidecars], lookedAt)) {
    db.close();
    return;
  }
  const dirStamp = dir !== undefined && dir !== null && dir.kind === 'dir' && settled([dir], lookedAt) ? statStamp(dir) : null;
  pool.byPath.set(path, { db, looks, stamp: stampOf(looks), dir: dirStamp });
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
