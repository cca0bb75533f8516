import { join } from 'node:path';
import { isPortError } from '../errors.js';
import type { FileKind, FileSystemPort } from '../ports/fs.js';
import type { RemovalReport } from './remove-confined.js';

/** Runs one removal call and files `path` under removed or residual; a path already gone counts as removed. */
export async function settle(acc: RemovalReport, path: string, op: () => Promise<void>): Promise<boolean> {
  try {
    await op();
    acc.removed.push(path);
    return true;
  } catch (err) {
    if (isPortError(err, 'NotFound')) return true;
    acc.residual.push(path);
    return false;
  }
}

/** Removes every entry of a verified directory except `keep`, never descending through a link; resolves true when all are gone. */
export async function removeEntries(fs: FileSystemPort, dir: string, acc: RemovalReport, keep?: string): Promise<boolean> {
  let entries;
  try {
    entries = await fs.readdir(dir);
  } catch (err) {
    return isPortError(err, 'NotFound');
  }
  let clean = true;
  for (const entry of entries) {
    if (entry.name === keep) continue;
    const child = join(dir, entry.name);
    let kind = entry.kind;
    if (kind === 'dir') {
      // Re-check right before descending: readdir's answer may be stale, and descending into a link would leave the root.
      try {
        kind = (await fs.lstat(child)).kind;
      } catch (err) {
        if (isPortError(err, 'NotFound')) continue;
        acc.residual.push(child);
        clean = false;
        continue;
      }
    }
    if (!(await removeNoFollow(fs, child, kind, acc))) clean = false;
  }
  return clean;
}

/**
 * Removes `path` (whose parent chain the caller verified) depth-first, unlinking every link as a link and never
 * descending through one; never throws. Resolves true when `path` is gone.
 */
export async function removeNoFollow(fs: FileSystemPort, path: string, kind: FileKind, acc: RemovalReport): Promise<boolean> {
  if (kind !== 'dir') return settle(acc, path, () => fs.unlink(path));
  if (!(await removeEntries(fs, path, acc))) {
    // Something inside stays, so rmdir could only fail: the directory is kept and reported.
    acc.residual.push(path);
    return false;
  }
  return settle(acc, path, () => fs.rmdir(path));
}
