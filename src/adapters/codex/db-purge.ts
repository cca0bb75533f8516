import Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { quoteIdent } from '../../sqlite/schema.js';
import type { CodexDb } from './codex-dbs.js';
import { threadColumns } from './thread-columns.js';
import { describeError } from '../../errors.js';

/**
 * What deleting one conversation's rows from one database did: the rows deleted (`<db> (<table>.<col>: N rows)`), or why
 * nothing was (the residual then still names the rows).
 * @public
 */
export interface DbPurge {
  deleted: string[];
  failure: string | null;
}

const BUSY_TIMEOUT_MS = 5000;

// The purge writes only a regular file confined to its directory, beside sidecars that are regular files too:
// SQLite would follow a link and write wherever it points.
async function writable(fs: FileSystemPort, db: CodexDb): Promise<string | null> {
  const check = await confinedCheck(fs, db.root, db.path).catch(() => ({ kind: 'outside' as const }));
  if (check.kind !== 'ok' || check.leaf !== 'file') return 'not a regular file inside its directory';
  // A link, a non-regular file or a hard link (nlink > 1) as the database or a sidecar: a write would reach another file.
  return dbWriteRefusal(fs, db.path);
}

function deleteRows(conn: Database.Database, label: string, id: string, keepThreads: boolean): string[] {
  const deleted: string[] = [];
  // Only the rows deleted here go: no cascade may reach a row of another thread.
  conn.pragma('foreign_keys = OFF');
  conn.transaction(() => {
    const { owned } = threadColumns(conn);
    for (const { table, column } of owned) {
      if (keepThreads && table.toLowerCase() === 'threads') continue;
      const n = conn.prepare(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} = ?`).run(id).changes;
      if (n > 0) deleted.push(`${label} (${table}.${column}: ${n} rows)`);
    }
  }).immediate();
  return deleted;
}

/**
 * Deletes every row one thread owns from one Codex database, in one transaction (`threads` last, or kept with
 * `keepThreads` while a rollout it records stays) — the only read-write
 * open of an agent database, run after the caller's in-use gate and only when a read-only look found rows to delete.
 * SQLite replays the `-wal` on open (the rows may live only there) and keeps or checkpoints its sidecars itself; nothing
 * here removes them. Never throws.
 * @public
 */
export async function purgeDbRows(fs: FileSystemPort, db: CodexDb, id: string, keepThreads = false): Promise<DbPurge> {
  try {
    const refusal = await writable(fs, db);
    if (refusal !== null) return { deleted: [], failure: `${db.path} (${refusal}: not purged)` };
    const conn = new Database(db.path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    try {
      return { deleted: deleteRows(conn, db.path, id, keepThreads), failure: null };
    } finally {
      conn.close();
    }
  } catch (err) {
    return { deleted: [], failure: `${db.path} (${describeError(err)}: not purged)` };
  }
}
