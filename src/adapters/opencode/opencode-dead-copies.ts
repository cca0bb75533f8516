import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import { describeError } from '../../errors.js';
import { pagesNaming, rebuildTreesOnPages } from '../../sqlite/dead-copies.js';
import Database from '../../sqlite/driver.js';
import { secureCheckpoint } from '../../sqlite/secure-checkpoint.js';

/** How long the rebuild waits for another writer to let go. */
const BUSY_TIMEOUT_MS = 5_000;

const why = (dbPath: string, pages: number, cause: string): string =>
  `${dbPath}: ${pages} page(s) still hold old copies of the purged rows in their unused space (OpenCode writes without secure_delete): ${cause}`;

/**
 * After the purge's deletes and truncating checkpoint: finds the pages of `opencode.db` whose bytes still name one of `ids`
 * (old copies OpenCode's own updates left in the unused space of pages holding other sessions' rows; a SIGKILLed turn
 * leaves many) and rebuilds the b-trees owning them with `secure_delete` on (see {@link rebuildTreesOnPages}); their rows
 * are unchanged. Skipped, with a line in `notes`, when the WAL is still busy (`notes` already says so) or another process
 * holds the database (a live OpenCode elsewhere: its pages are not rewritten under it). Returns the b-trees rebuilt;
 * never throws (what is left is a line in `notes`).
 * @public
 */
export async function wipeOpencodeDeadCopies(fs: FileSystemPort, proc: ProcessPort, dbPath: string, ids: readonly string[], notes: string[]): Promise<string[]> {
  if (notes.length > 0) return [];
  try {
    // After a truncating checkpoint the main file is the whole database.
    const pages = pagesNaming(await fs.readFile(dbPath), ids);
    if (pages.length === 0) return [];
    const self = proc.selfPid();
    const others = [...new Set((await proc.holders([dbPath, `${dbPath}-wal`, `${dbPath}-shm`])).map((h) => h.pid))].filter((p) => p !== self);
    if (others.length > 0) {
      notes.push(why(dbPath, pages.length, `not rewritten while another process holds the database (pid ${others.join(', ')})`));
      return [];
    }
    const db = new Database(dbPath, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    let result;
    try {
      db.pragma('secure_delete = ON');
      db.pragma('foreign_keys = OFF');
      result = rebuildTreesOnPages(db, pages);
      notes.push(...secureCheckpoint(db, dbPath));
    } finally {
      db.close();
    }
    const left = pagesNaming(await fs.readFile(dbPath), ids);
    if (left.length > 0) notes.push(why(dbPath, left.length, result.skipped.length > 0 ? `not rebuilt: ${result.skipped.join('; ')}` : 'a live row names the id'));
    return result.rebuilt;
  } catch (err) {
    notes.push(`${dbPath}: the pages holding old copies of the purged rows could not be rebuilt: ${describeError(err)}`);
    return [];
  }
}
