import type { FileSystemPort } from '../../ports/fs.js';

/**
 * The conversation's last activity, epoch milliseconds: the newest mtime of the database and its `-wal` (a live writer
 * appends to the WAL and leaves the main file's mtime behind), or null when neither can be stat'ed. Never throws.
 * @public
 */
export async function agyActivityMs(fs: FileSystemPort, dbPath: string): Promise<number | null> {
  const paths = [dbPath, `${dbPath}-wal`];
  const times = await Promise.all(paths.map((p) => fs.stat(p).then((s) => s.mtimeMs, () => null)));
  const known = times.filter((t): t is number => t !== null && Number.isFinite(t));
  return known.length === 0 ? null : Math.max(...known);
}
