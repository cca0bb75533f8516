import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import { type DeadCopyWipe, wipeDeadCopies } from '../../sqlite/finish-dead-copies.js';

/**
 * After the purge's deletes and truncating checkpoint: wipes the old copies of the rows of `ids` still in `opencode.db`'s
 * bytes (copies OpenCode's own updates left in the unused space of pages holding other sessions' rows, written without
 * `secure_delete`; a SIGKILLed turn leaves many) by the one pass every SQLite store's purge runs ({@link wipeDeadCopies});
 * other rows are unchanged. Skipped, with a line in `notes`, when the WAL is still busy (`notes` already says so) or
 * another process holds the database (a live OpenCode elsewhere: its pages are not rewritten under it). Returns the
 * b-trees rebuilt; never throws (what is left is a line in `notes`).
 * @public
 */
export async function wipeOpencodeDeadCopies(fs: FileSystemPort, proc: ProcessPort, dbPath: string, ids: readonly string[], notes: string[]): Promise<string[]> {
  return (await wipeOpencodeCopies(fs, proc, dbPath, ids, notes))?.rebuilt ?? [];
}

/** {@link wipeOpencodeDeadCopies} with the whole outcome (null when skipped for a busy WAL). */
export async function wipeOpencodeCopies(fs: FileSystemPort, proc: ProcessPort, dbPath: string, ids: readonly string[], notes: string[]): Promise<DeadCopyWipe | null> {
  if (notes.length > 0) return null;
  const done = await wipeDeadCopies(fs, proc, dbPath, ids, 'OpenCode writes without secure_delete');
  notes.push(...done.notes);
  return done;
}
