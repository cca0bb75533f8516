import type Database from 'better-sqlite3';

/**
 * After a purge's deletes on a `secure_delete` connection: in WAL mode, asks for a truncating checkpoint, so the zeroed
 * pages reach the main file and the `-wal` no longer holds the old ones; returns a note when that could not be done (another
 * connection kept the WAL busy: it then still holds the deleted text until SQLite's next full checkpoint). Never throws.
 * @public
 */
export function secureCheckpoint(conn: Database.Database, label: string): string[] {
  try {
    const mode = String(conn.pragma('journal_mode', { simple: true })).toLowerCase();
    if (mode !== 'wal') return [];
    const [row] = conn.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    if (row !== undefined && row.busy === 0 && row.log <= 0) return [];
  } catch {
    // Reported below like a busy checkpoint.
  }
  return [`${label}-wal still holds the deleted text until the next checkpoint (another connection kept the WAL busy)`];
}
