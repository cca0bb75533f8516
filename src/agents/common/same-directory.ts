import { isAbsolute, resolve } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';

async function realOrNull(fs: FileSystemPort, path: string): Promise<string | null> {
  try {
    return await fs.realpath(path);
  } catch {
    return null;
  }
}

/**
 * Tells whether a recorded directory (a cache key, a `cwd` column) names a given workspace: equal as written, equal to
 * its realpath, or resolving to it (each distinct recorded directory is resolved once).
 * @public
 */
export interface DirectoryMatcher {
  /** True when `recorded` is the workspace. */
  matches(recorded: string): Promise<boolean>;
}

/**
 * The realpath of each directory once (null when it cannot be resolved): matchers of one batch share it.
 * @public
 */
export type RealpathMemo = (path: string) => Promise<string | null>;

/**
 * A {@link RealpathMemo} over `fs`, for the life of one call.
 * @public
 */
export function realpathMemo(fs: FileSystemPort): RealpathMemo {
  const resolved = new Map<string, Promise<string | null>>();
  return (path) => {
    let r = resolved.get(path);
    if (r === undefined) resolved.set(path, (r = realOrNull(fs, path)));
    return r;
  };
}

/**
 * Builds a {@link DirectoryMatcher} for `workspace` (compared by realpath, as the stores record it); matchers given one
 * `real` memo resolve each directory once between them.
 * @public
 */
export async function directoryMatcher(fs: FileSystemPort, workspace: string, real: RealpathMemo = realpathMemo(fs)): Promise<DirectoryMatcher> {
  const given = isAbsolute(workspace) ? resolve(workspace) : workspace;
  const target = (await real(given)) ?? given;
  return {
    async matches(recorded: string): Promise<boolean> {
      if (typeof recorded !== 'string' || !isAbsolute(recorded) || recorded.includes('\0')) return false;
      const plain = resolve(recorded);
      if (plain === given || plain === target) return true;
      return (await real(plain)) === target;
    },
  };
}
