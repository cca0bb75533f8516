import { isPortError } from '../errors.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';

/** The `lstat` of `path`, or null when nothing is there (no such entry, or a parent that is not a directory). */
export async function lstatOrNull(fs: FileSystemPort, path: string): Promise<FileStat | null> {
  try {
    return await fs.lstat(path);
  } catch (err) {
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) return null;
    throw err;
  }
}
