import Database from '../../sqlite/driver.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { secureCheckpoint } from '../../sqlite/secure-checkpoint.js';
import type { CodexDb } from './codex-dbs.js';
import { rolloutPathPattern } from './rollout-name.js';
import { threadColumns } from './thread-columns.js';
import { describeError } from '../../errors.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';

/**
 * What deleting one conversation's rows from one database did: the rows deleted, or why nothing was (the residual then
 * still names the rows), and notes about what the files may still hold.
 * @public
 */
export interface DbPurge {
  /** The rows deleted (kind `rows`). */
  deleted: Artifact[];
  /** Why this database kept its rows (`<why>: not purged`), or null. */
  failure: LeftArtifact | null;
  /** E.g. that the `-wal` still holds the deleted text until the next checkpoint (another connection kept it busy). */
  notes: string[];
}

const BUSY_TIMEOUT_MS = 5000;

// The purge writes only a regular file confined to its directory, beside sidecars that are regular files with one link:
// SQLite would follow a link and write wherever it points.
async function writable(fs: FileSystemPort, db: CodexDb): Promise<string | null> {
  const check = await confinedCheck(fs, db.root, db.path).catch(() => ({ kind: 'outside' as const }));
  if (check.kind !== 'ok' || check.leaf !== 'file') return 'not a regular file inside its directory';
  // A link, a non-regular file or a hard link (nlink > 1) as the database or a sidecar: a write would reach another file.
  return dbWriteRefusal(fs, db.path);
}

function deleteRows(conn: Database.Database, label: string, id: string, keepThreads: boolean): Artifact[] {
  const counts = new Map<string, { table: string; column: string; count: number }>();
  const add = (table: string, column: string, n: number): void => {
    if (n <= 0) return;
    const key = `${table}\0${column}`;
    const had = counts.get(key);
    counts.set(key, { table, column, count: (had?.count ?? 0) + n });
  };
  // Only the rows deleted here go: no cascade may reach a row of another thread.
  conn.pragma('foreign_keys = OFF');
  conn.transaction(() => {
    const { owned, rolloutPaths } = threadColumns(conn);
    // Two passes: a trigger of a first-pass delete may record the thread again (queue_1's queued_items_revision_after_delete
    // inserts into queued_thread_revisions), and the second pass takes that row too.
    for (let pass = 0; pass < 2; pass++) {
      for (const { table, column } of owned) {
        if (keepThreads && table.toLowerCase() === 'threads') continue;
        add(table, column, conn.prepare(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} = ?`).run(id).changes);
      }
      for (const { table, column } of rolloutPaths) {
        add(table, column, conn.prepare(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} LIKE ?`).run(rolloutPathPattern(id)).changes);
      }
    }
  }).immediate();
  return [...counts.values()].map((c) => ({ kind: 'rows' as const, db: label, table: c.table, column: c.column, count: c.count }));
}

/**
 * Deletes every row one thread owns from one Codex database, in one transaction (`threads` last, or kept with
 * `keepThreads` while a rollout it records stays) — the only read-write open of an agent database, run after the caller's
 * in-use gate and only when a read-only look found rows to delete. The connection sets `secure_delete` (the freed pages are
 * zeroed, so the text is not left readable in the file) and then asks for a truncating checkpoint so the `-wal` drops the
 * old pages too; when another connection keeps the WAL busy, a note says it still holds the text. SQLite replays the `-wal`
 * on open (the rows may live only there) and keeps or removes its sidecars itself; nothing here removes them. Never throws.
 * @public
 */
export async function purgeDbRows(fs: FileSystemPort, db: CodexDb, id: string, keepThreads = false): Promise<DbPurge> {
  try {
    const refusal = await writable(fs, db);
    if (refusal !== null) return { deleted: [], failure: { kind: 'file', path: db.path, reason: `${refusal}: not purged` }, notes: [] };
    const conn = new Database(db.path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    try {
      conn.pragma('secure_delete = ON');
      const deleted = deleteRows(conn, db.path, id, keepThreads);
      return { deleted, failure: null, notes: deleted.length > 0 ? secureCheckpoint(conn, db.path) : [] };
    } finally {
      conn.close();
    }
  } catch (err) {
    return { deleted: [], failure: { kind: 'file', path: db.path, reason: `${describeError(err)}: not purged` }, notes: [] };
  }
}
