import Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import { quoteIdent } from '../../sqlite/schema.js';
import type { CodexDb } from './codex-dbs.js';
import { threadColumns } from './thread-columns.js';
import { describeError } from '../../errors.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';

/**
 * What deleting one conversation's rows from one database did: the rows deleted, or why nothing was (the residual then
 * still names the rows).
 * @public
 */
export interface DbPurge {
  /** The rows deleted (kind `rows`). */
  deleted: Artifact[];
  /** Why this database kept its rows (`<why>: not purged`), or null. */
  failure: LeftArtifact | null;
}

const BUSY_TIMEOUT_MS = 5000;

// The purge writes only a regular file confined to its directory, beside sidecars that are regular files too:
// SQLite would follow a link and write wherever it points.
async function writable(fs: FileSystemPort, db: CodexDb): Promise<string | null> {
  const check = await confinedCheck(fs, db.root, db.path).catch(() => ({ kind: 'outside' as const }));
  if (check.kind !== 'ok' || check.leaf !== 'file') return 'not a regular file inside its directory';
  for (const suffix of ['-wal', '-shm', '-journal']) {
    const kind = await fs.lstat(db.path + suffix).then((s) => s.kind, () => null);
    if (kind !== null && kind !== 'file') return `${suffix} is not a regular file`;
  }
  return null;
}

function deleteRows(conn: Database.Database, label: string, id: string, keepThreads: boolean): Artifact[] {
  const deleted: Artifact[] = [];
  // Only the rows deleted here go: no cascade may reach a row of another thread.
  conn.pragma('foreign_keys = OFF');
  conn.transaction(() => {
    const { owned } = threadColumns(conn);
    for (const { table, column } of owned) {
      if (keepThreads && table.toLowerCase() === 'threads') continue;
      const n = conn.prepare(`DELETE FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} = ?`).run(id).changes;
      if (n > 0) deleted.push({ kind: 'rows', db: label, table, column, count: n });
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
    if (refusal !== null) return { deleted: [], failure: { kind: 'file', path: db.path, reason: `${refusal}: not purged` } };
    const conn = new Database(db.path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    try {
      return { deleted: deleteRows(conn, db.path, id, keepThreads), failure: null };
    } finally {
      conn.close();
    }
  } catch (err) {
    return { deleted: [], failure: { kind: 'file', path: db.path, reason: `${describeError(err)}: not purged` } };
  }
}
