import { join, sep } from 'node:path';
import type { FileSystemPort } from '../ports/fs.js';
import { confinedCheck } from './confined-check.js';
import type { RemovalReport } from './remove-confined.js';
import { removeEntries, removeNoFollow, settle } from './remove-no-follow.js';

function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes(sep) && !name.includes('\0');
}

/**
 * Empties a confined directory with the entry `lastName` (e.g. `state.json`) removed last, then removes the directory; when anything stays, `lastName` and the directory are kept and reported as residual. Never throws.
 * @example
 * ```ts
 * await removeDirKeepingLast(fs, jobsRoot, join(jobsRoot, jobId), 'state.json');
 * ```
 * @public
 */
export async function removeDirKeepingLast(fs: FileSystemPort, root: string, dir: string, lastName: string): Promise<RemovalReport> {
  const acc: RemovalReport = { removed: [], residual: [] };
  try {
    const check = isPlainName(lastName) ? await confinedCheck(fs, root, dir) : ({ kind: 'outside' } as const);
    if (check.kind === 'missing') return acc;
    if (check.kind !== 'ok' || check.leaf !== 'dir') {
      acc.residual.push(dir);
      return acc;
    }
    const path = check.path;
    if (!(await removeEntries(fs, path, acc, lastName))) {
      acc.residual.push(path);
      return acc;
    }
    // The last entry goes only once everything else has, so a partial failure leaves the directory attributable.
    const last = join(path, lastName);
    const lastKind = await fs.lstat(last).then((s) => s.kind, () => null);
    if (lastKind !== null && !(await removeNoFollow(fs, last, lastKind, acc))) {
      acc.residual.push(path);
      return acc;
    }
    // A plain rmdir: anything that appeared meanwhile is kept, and so is the directory.
    await settle(acc, path, () => fs.rmdir(path));
    return acc;
  } catch {
    acc.residual.push(dir);
    return acc;
  }
}
