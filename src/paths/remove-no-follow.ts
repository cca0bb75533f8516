import { join } from 'node:path';
import { describeError, isPortError } from '../errors.js';
import type { DirHandle, FileStat } from '../ports/fs.js';
import { isSwap, openChecked, sameFile } from './open-confined.js';
import { REMOVAL_REASONS } from './removal-reasons.js';
import type { RemovalReport } from './removal-report.js';

/** Files `path` as residual with its reason (once: a path already left keeps its first reason). */
export function leave(acc: RemovalReport, path: string, reason: string): void {
  if (acc.residual.includes(path)) return;
  acc.residual.push(path);
  acc.left.push({ path, reason });
}

function reasonOf(err: unknown): string {
  return isSwap(err) ? REMOVAL_REASONS.swapped : describeError(err);
}

/** Unlinks the non-directory `name` of `dir` and files `path` under removed or residual; a name already gone counts as removed. */
async function unlinkEntry(dir: DirHandle, name: string, path: string, acc: RemovalReport): Promise<boolean> {
  try {
    await dir.unlink(name);
    acc.removed.push(path);
    return true;
  } catch (err) {
    if (isPortError(err, 'NotFound')) return true;
    leave(acc, path, reasonOf(err));
    return false;
  }
}

/** Removes the emptied directory `name` of `dir`; when it fails, tells a swap (the name is no longer what was emptied) from a plain failure. */
export async function rmdirEntry(dir: DirHandle, name: string, path: string, seen: FileStat, acc: RemovalReport): Promise<boolean> {
  try {
    await dir.rmdir(name);
    acc.removed.push(path);
    return true;
  } catch (err) {
    if (isPortError(err, 'NotFound')) return true;
    const now = await dir.lstat(name).catch(() => null);
    leave(acc, path, now !== null && !sameFile(now, seen) ? REMOVAL_REASONS.swapped : reasonOf(err));
    return false;
  }
}

/**
 * Removes every entry of the open directory `dir` (at `path`) except `keep`, never descending through a link and only
 * into a directory that is the one listed; resolves true when all are gone.
 */
export async function removeEntries(dir: DirHandle, path: string, acc: RemovalReport, keep?: string): Promise<boolean> {
  let entries;
  try {
    entries = await dir.readdir();
  } catch (err) {
    if (isPortError(err, 'NotFound')) return true;
    leave(acc, path, reasonOf(err));
    return false;
  }
  let clean = true;
  for (const entry of entries) {
    if (entry.name === keep) continue;
    if (!(await removeEntry(dir, entry.name, join(path, entry.name), acc))) clean = false;
  }
  return clean;
}

/**
 * Removes the entry `name` of the open directory `dir` (at `path`) depth-first: a link as the link alone, a directory
 * through a handle opened on it (checked to be the one lstat saw) and then by name; never throws. Resolves true when gone.
 */
export async function removeEntry(dir: DirHandle, name: string, path: string, acc: RemovalReport, seen?: FileStat): Promise<boolean> {
  let st = seen;
  if (st === undefined) {
    try {
      st = await dir.lstat(name);
    } catch (err) {
      if (isPortError(err, 'NotFound')) return true;
      leave(acc, path, reasonOf(err));
      return false;
    }
  }
  if (st.kind !== 'dir') return unlinkEntry(dir, name, path, acc);
  const child = await openChecked(dir, name, st);
  if (child === 'missing') return true;
  if ('reason' in child) {
    leave(acc, path, child.reason);
    return false;
  }
  try {
    if (!(await removeEntries(child, path, acc))) {
      // Something inside stays, so rmdir could only fail: the directory is kept and reported.
      leave(acc, path, REMOVAL_REASONS.insideStays);
      return false;
    }
  } finally {
    await child.close();
  }
  return rmdirEntry(dir, name, path, st, acc);
}
