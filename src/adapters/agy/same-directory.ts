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
 * Builds a {@link DirectoryMatcher} for `workspace` (compared by realpath, as the stores record it).
 * @public
 */
export async function directoryMatcher(fs: FileSystemPort, workspace: string): Promise<DirectoryMatcher> {
  const given = isAbsolute(workspace) ? resolve(workspace) : workspace;
  const real = (await realOrNull(fs, given)) ?? given;
  const resolved = new Map<string, Promise<string | null>>();
  return {
    async matches(recorded: string): Promise<boolean> {
      if (typeof recorded !== 'string' || !isAbsolute(recorded) || recorded.includes('\0')) return false;
      const plain = resolve(recorded);
      if (plain === given || plain === real) return true;
      let r = resolved.get(plain);
      if (r === undefined) resolved.set(plain, (r = realOrNull(fs, plain)));
      return (await r) === real;
    },
  };
}
