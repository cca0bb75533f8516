import type { FileSystemPort } from '../ports/fs.js';
import { confinedCheck } from './confined-check.js';
import { removeNoFollow } from './remove-no-follow.js';

/**
 * What a confined removal did: the paths it removed, and the paths that should have gone but stay (a failure, a refusal, an unreadable entry).
 * @public
 */
export interface RemovalReport {
  /** Paths removed, in removal order. */
  removed: string[];
  /** Paths that should have gone but are still there. */
  residual: string[];
}

/**
 * Removes a file, a leaf link (the link alone), or a directory tree (never following a link inside it) when {@link confinedCheck} says `ok`; never throws.
 * @example
 * ```ts
 * const { removed, residual } = await removeConfined(fs, '/home/me/.claude/projects', '/home/me/.claude/projects/-w/abc.jsonl');
 * ```
 * @public
 */
export async function removeConfined(fs: FileSystemPort, root: string, candidate: string): Promise<RemovalReport> {
  const acc: RemovalReport = { removed: [], residual: [] };
  try {
    const check = await confinedCheck(fs, root, candidate);
    switch (check.kind) {
      case 'missing':
        return acc;
      case 'outside':
      case 'behind-link':
        acc.residual.push(candidate);
        return acc;
      case 'ok':
        await removeNoFollow(fs, check.path, check.leaf, acc);
        return acc;
      default: {
        const never: never = check;
        return never;
      }
    }
  } catch {
    acc.residual.push(candidate);
    return acc;
  }
}
