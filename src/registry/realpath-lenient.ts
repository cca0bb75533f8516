import { basename, dirname, join, resolve } from 'node:path';
import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';

/**
 * `realpath` that, like Python's `os.path.realpath`, also answers for a path that does not exist: the deepest existing
 * ancestor is resolved (links and all) and the missing rest appended as written.
 * @public
 */
export async function realpathLenient(fs: FileSystemPort, path: string): Promise<string> {
  const abs = resolve(path);
  try {
    return await fs.realpath(abs);
  } catch (err) {
    if (!isPortError(err, 'NotFound') && !isPortError(err, 'NotADirectory')) throw err;
    const parent = dirname(abs);
    if (parent === abs) return abs;
    return join(await realpathLenient(fs, parent), basename(abs));
  }
}
