import { describeError, isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What is at a store's root: `absent` (nothing there), `dir` (a directory that lists), or `unreadable` with the problem
 * (it is no directory, or it does not list). Links are followed. Never throws.
 */
export type StoreRootLook = { kind: 'absent' } | { kind: 'dir' } | { kind: 'unreadable'; problem: string };

/**
 * Looks at a store's root (one stat, one listing): whether it is there, and readable. Never throws.
 * @public
 */
export async function lookAtRoot(fs: FileSystemPort, root: string): Promise<StoreRootLook> {
  try {
    if ((await fs.stat(root)).kind !== 'dir') return { kind: 'unreadable', problem: `${root} is not a directory` };
    await fs.readdir(root);
    return { kind: 'dir' };
  } catch (err) {
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) return { kind: 'absent' };
    return { kind: 'unreadable', problem: `${root}: unreadable (${describeError(err)})` };
  }
}
