import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { tableNames } from '../../sqlite/schema.js';

/**
 * True when the conversation database is a regular file that opens read-only (sidecars included, directory untouched)
 * and holds at least one table — a killed CLI leaves its whole schema in `-wal`, so a reader that skipped the WAL would
 * see none. A missing, garbage or unreadable file is false. Never throws.
 * @public
 */
export async function agyDbReadable(fs: FileSystemPort, dbPath: string): Promise<boolean> {
  try {
    if ((await fs.stat(dbPath)).kind !== 'file') return false;
    return await withReadonlyDb(dbPath, { fs }, (h) => tableNames(h.db).length > 0);
  } catch {
    return false;
  }
}

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
