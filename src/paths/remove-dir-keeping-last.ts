import { join, sep } from 'node:path';
import { describeError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { openChecked, openConfinedParent } from './open-confined.js';
import { REMOVAL_REASONS } from './removal-reasons.js';
import type { RemovalReport } from './removal-report.js';
import { leave, removeEntries, removeEntry, rmdirEntry } from './remove-no-follow.js';
import { checkRemoveDirKeepingLast } from '../validation/low-level-args.js';

function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes(sep) && !name.includes('\0');
}

/**
 * Empties a confined directory with the entry `lastName` (e.g. `state.json`) removed last, then removes the directory; when
 * anything stays, `lastName` and the directory are kept and reported as residual. fd-anchored like {@link removeConfined}.
 * Never throws.
 * @example
 * ```ts
 * await removeDirKeepingLast(fs, jobsRoot, join(jobsRoot, jobId), 'state.json');
 * ```
 * @public
 */
export async function removeDirKeepingLast(fs: FileSystemPort, root: string, dir: string, lastName: string): Promise<RemovalReport> {
  checkRemoveDirKeepingLast([fs, root, dir, lastName]);
  const acc: RemovalReport = { removed: [], residual: [], left: [] };
  try {
    const at = isPlainName(lastName) ? await openConfinedParent(fs, root, dir) : ({ kind: 'left', reason: REMOVAL_REASONS.outside } as const);
    if (at.kind === 'missing') return acc;
    if (at.kind === 'left') {
      leave(acc, dir, at.reason);
      return acc;
    }
    try {
      if (at.leaf.kind !== 'dir') {
        leave(acc, dir, 'not a directory');
        return acc;
      }
      const path = at.path;
      const inner = await openChecked(at.parent, at.name, at.leaf);
      if (inner === 'missing') return acc;
      if ('reason' in inner) {
        leave(acc, path, inner.reason);
        return acc;
      }
      try {
        if (!(await removeEntries(inner, path, acc, lastName))) {
          leave(acc, path, REMOVAL_REASONS.insideStays);
          return acc;
        }
        // The last entry goes only once everything else has, so a partial failure leaves the directory attributable.
        if (!(await removeEntry(inner, lastName, join(path, lastName), acc))) {
          leave(acc, path, REMOVAL_REASONS.insideStays);
          return acc;
        }
      } finally {
        await inner.close();
      }
      // A plain rmdir of the emptied directory: anything that appeared meanwhile is kept, and so is the directory.
      await rmdirEntry(at.parent, at.name, path, at.leaf, acc);
      return acc;
    } finally {
      await at.parent.close();
    }
  } catch (err) {
    leave(acc, dir, describeError(err));
    return acc;
  }
}
