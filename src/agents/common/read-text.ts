import type { FileStat, FileSystemPort } from '../../ports/fs.js';

/**
 * The UTF-8 text of a small file of an agy root, or null when it is missing, not a regular file (a link, a FIFO, a
 * directory: never opened), larger than `maxBytes` or not valid UTF-8. Never throws.
 * @public
 */
export async function readAgyText(fs: FileSystemPort, path: string, maxBytes: number): Promise<string | null> {
  try {
    const st = await fs.lstat(path);
    if (st.kind !== 'file' || st.size > maxBytes) return null;
    const head = await fs.readHead(path, maxBytes + 1);
    if (head.byteLength > maxBytes) return null;
    return new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    return null;
  }
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * True when the path is a regular file starting with SQLite's header: anything else is never handed to SQLite (a
 * read-only open of a garbage main file beside a `-wal` and `-shm` was seen to remove that `-wal`). `seen` is an `lstat`
 * of the path the caller has just taken (null: nothing there), used instead of another. Never throws.
 * @public
 */
export async function isAgySqliteFile(fs: FileSystemPort, path: string, seen?: FileStat | null): Promise<boolean> {
  try {
    const st = seen === undefined ? await fs.lstat(path) : seen;
    if (st === null || st.kind !== 'file') return false;
    const head = await fs.readHead(path, SQLITE_MAGIC.length);
    return Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('latin1') === SQLITE_MAGIC;
  } catch {
    return false;
  }
}
