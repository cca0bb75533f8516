import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { checkFsDbPath } from '../validation/low-level-args.js';
import { releaseKept } from './kept-connections.js';

/** The files SQLite writes through when a connection changes a database: the file and its sidecars. */
const SIDECARS = ['', '-wal', '-shm', '-journal'] as const;

/**
 * Why a database must not be written (its file or a sidecar is a link, not a regular file, or has other hard links: a
 * write would reach another file), or null when a write stays in this database's own files. Absent sidecars are fine.
 * Every read-only connection kept on `fs` between calls is closed first.
 * @public
 */
export async function dbWriteRefusal(fs: FileSystemPort, dbPath: string): Promise<string | null> {
  checkFsDbPath([fs, dbPath]);
  // No connection of this process kept from an earlier read outlives what the write is about to change.
  releaseKept(fs);
  for (const suffix of SIDECARS) {
    const path = `${dbPath}${suffix}`;
    let st;
    try {
      st = await fs.lstat(path);
    } catch (err) {
      if (suffix !== '' && isPortError(err, 'NotFound')) continue;
      return `${path} could not be checked before writing (${err instanceof Error ? err.message : String(err)})`;
    }
    if (st.kind === 'symlink') return `${path} is a symbolic link: refusing to write through it`;
    if (st.kind !== 'file') return `${path} is not a regular file: refusing to write to it`;
    if (st.nlink > 1) return `${path} has ${st.nlink} hard links: a write would change another file too`;
  }
  return null;
}
