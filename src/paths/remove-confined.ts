import { describeError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { openConfinedParent } from './open-confined.js';
import { leave, removeEntry } from './remove-no-follow.js';
import type { RemovalReport } from './removal-report.js';
import { checkConfined } from '../validation/low-level-args.js';

export type { RemovalLeft, RemovalReport } from './removal-report.js';

/**
 * Removes a file, a leaf link (the link alone), or a directory tree below `root`, fd-anchored the way `rm -rf` and
 * `shutil.rmtree` are: the root is resolved and opened once, every later step is relative to a directory already open,
 * no link is ever followed, and each directory opened is checked to be the one listed, so a concurrent swap of any
 * directory for a link cannot redirect it outside the root (what it meets is left and reported). Never throws.
 * @example
 * ```ts
 * const { removed, residual, left } = await removeConfined(fs, '/home/me/.claude/projects', '/home/me/.claude/projects/-w/abc.jsonl');
 * ```
 * @public
 */
export async function removeConfined(fs: FileSystemPort, root: string, candidate: string): Promise<RemovalReport> {
  checkConfined([fs, root, candidate]);
  const acc: RemovalReport = { removed: [], residual: [], left: [] };
  try {
    const at = await openConfinedParent(fs, root, candidate);
    switch (at.kind) {
      case 'missing':
        return acc;
      case 'left':
        leave(acc, candidate, at.reason);
        return acc;
      case 'ok':
        try {
          await removeEntry(at.parent, at.name, at.path, acc, at.leaf);
        } finally {
          await at.parent.close();
        }
        return acc;
      default: {
        const never: never = at;
        return never;
      }
    }
  } catch (err) {
    leave(acc, candidate, describeError(err));
    return acc;
  }
}
