import Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { detectWalState } from '../../sqlite/wal-state.js';
import type { Artifact } from '../../purge/artifact.js';
import { hermesLayout } from './hermes-layout.js';

/** How long a delete waits for a live Hermes writer's lock before giving up (the rows then stay and are residual). */
const BUSY_TIMEOUT_MS = 2_000;

function deleteRows(db: Database.Database, label: string, id: string): Artifact[] {
  const out: Artifact[] = [];
  db.exec('BEGIN IMMEDIATE');
  try {
    // Checked again under the write lock: the layout decides what may be deleted.
    const layout = hermesLayout(db);
    if (layout.kind !== 'known') {
      db.exec('ROLLBACK');
      return [];
    }
    for (const { table, column } of layout.targets) {
      const n = db.prepare(`DELETE FROM ${quoteIdent(table)} WHERE lower(${quoteIdent(column)}) = ?`).run(id).changes;
      if (n > 0) out.push({ kind: 'rows', db: label, table, column, count: n });
    }
    db.exec('COMMIT');
    return out;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Deletes the rows naming the canonical id from the shared `state.db` in one transaction — never the file or its sidecars —
 * when the database is a regular file confined to the Hermes root and its layout is known; returns the rows deleted. When the database had both sidecars (a live or crashed writer), a read-only guard
 * connection outlives the writing one, so closing it neither checkpoints nor removes them. Never throws: a refusal, a busy
 * writer or a failure deletes nothing (the rows stay residual).
 * @public
 */
export async function purgeHermesRows(fs: FileSystemPort, root: string, dbPath: string, id: string): Promise<Artifact[]> {
  let writer: Database.Database | undefined;
  let guard: Database.Database | undefined;
  try {
    const check = await confinedCheck(fs, root, dbPath);
    if (check.kind !== 'ok' || check.leaf !== 'file') return [];
    const keepSidecars = (await detectWalState(fs, check.path)) === 'leftover';
    writer = new Database(check.path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const deleted = deleteRows(writer, dbPath, id);
    if (keepSidecars) guard = openGuard(check.path);
    return deleted;
  } catch {
    return [];
  } finally {
    closeQuietly(writer);
    closeQuietly(guard);
  }
}

// A reader holding the WAL open: the writer's close is then not the last one, and a read-only close never checkpoints.
function openGuard(path: string): Database.Database | undefined {
  try {
    const guard = new Database(path, { readonly: true, fileMustExist: true });
    guard.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
    return guard;
  } catch {
    return undefined;
  }
}

function closeQuietly(db: Database.Database | undefined): void {
  try {
    db?.close();
  } catch {
    // Nothing to report: the rows were deleted (or not) before the close.
  }
}
