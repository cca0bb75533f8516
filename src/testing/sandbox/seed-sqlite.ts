import { existsSync } from 'node:fs';
import Database from '../../sqlite/driver.js';

/**
 * Where a seeded conversation's database rows are left: `checkpointed` (in the main file, no `-wal`/`-shm`: what a clean
 * exit of Codex or Hermes leaves) or `wal-only` (appended to `-wal` and never checkpointed, `-shm` beside it: what a
 * killed writer leaves, and what OpenCode and agy leave even on a clean exit).
 * @public
 */
export type SeedSqliteState = 'checkpointed' | 'wal-only';

/**
 * Writes rows into an agent database the way the agent's own writer does: WAL mode, the real schema on a new file, one
 * transaction; then either a checkpointing close or a close that leaves every new row in `-wal`.
 */
export function writeAgentDb(path: string, schema: readonly string[], state: SeedSqliteState, fill: (db: Database.Database) => void): void {
  const fresh = !existsSync(path);
  const db = new Database(path);
  let guard: Database.Database | undefined;
  try {
    // No fsync: a test's files need not survive a power cut, and the bytes written are the same (not stored in the file).
    db.pragma('synchronous = OFF');
    db.pragma('journal_mode = WAL');
    if (state === 'wal-only') {
      db.pragma('wal_autocheckpoint = 0');
      // A second connection open while the writer closes: the writer is not the last one, so its close does not
      // checkpoint; the guard is read-only, so its own close cannot either. The rows stay in -wal.
      guard = new Database(path, { readonly: true });
    }
    db.transaction(() => {
      if (fresh) for (const sql of schema) db.exec(sql);
      fill(db);
    })();
    guard?.prepare('SELECT count(*) FROM sqlite_schema').get();
  } finally {
    db.close();
    guard?.close();
  }
}
