import Database from '../../sqlite/driver.js';
import { closeQuietly, openWalGuard } from '../../sqlite/guard-connection.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import type { Artifact } from '../../purge/artifact.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { detectWalState } from '../../sqlite/wal-state.js';
import { describeError } from '../../errors.js';
import { grokSearchLayout, hasGrokFts } from './grok-search-layout.js';

/** How long the delete waits for a live grok's write lock on the shared index (the rows then stay, residual). */
const BUSY_TIMEOUT_MS = 2_000;

/**
 * What deleting sessions' rows from one search database did: the rows deleted, or why nothing was.
 * @public
 */
export type GrokSearchPurge = { kind: 'deleted'; rows: Artifact | null } | { kind: 'failed'; reason: string };

function deleteRows(conn: Database.Database, dbPath: string, ids: readonly string[]): Artifact | null {
  // Deleted pages are zeroed, not just unlinked: the conversation's text must not stay readable in free pages.
  conn.pragma('secure_delete = ON');
  conn.exec('BEGIN IMMEDIATE');
  try {
    // Checked again under the write lock: a grok that upgraded the schema meanwhile is not written.
    const layout = grokSearchLayout(conn);
    if (layout.kind !== 'known') throw new Error(`unknown search database layout (${layout.reason})`);
    const marks = ids.map(() => '?').join(', ');
    // As `grok sessions delete` does; the session_docs_ad trigger removes the FTS row.
    const n = conn.prepare(`DELETE FROM session_docs WHERE lower(session_id) IN (${marks})`).run(...ids).changes;
    // The FTS5 'delete' only marks the terms deleted; merging the segments drops them from the index.
    if (n > 0 && hasGrokFts(conn)) conn.prepare("INSERT INTO session_docs_fts(session_docs_fts) VALUES ('optimize')").run();
    conn.exec('COMMIT');
    return n > 0 ? { kind: 'rows', db: dbPath, table: 'session_docs', column: 'session_id', count: n } : null;
  } catch (err) {
    if (conn.inTransaction) conn.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Deletes the `session_docs` rows (and through grok's trigger their FTS rows) of `ids` from one search database, in one
 * transaction with `secure_delete` on, when the file is a regular file confined to grok's home, passes
 * {@link dbWriteRefusal}, and has the layout grok writes. A database found with both sidecars (a live or crashed grok)
 * keeps them: a read-only guard connection outlives the writing one, so its close neither checkpoints nor removes them.
 * Never throws.
 * @public
 */
export async function purgeGrokSearchRows(fs: FileSystemPort, root: string, dbPath: string, ids: readonly string[]): Promise<GrokSearchPurge> {
  let writer: Database.Database | undefined;
  let guard: Database.Database | undefined;
  try {
    const check = await confinedCheck(fs, root, dbPath);
    if (check.kind !== 'ok' || check.leaf !== 'file') return { kind: 'failed', reason: 'not a regular file inside grok home: not purged' };
    const refusal = await dbWriteRefusal(fs, check.path);
    if (refusal !== null) return { kind: 'failed', reason: refusal };
    const keepSidecars = (await detectWalState(fs, check.path)) === 'leftover';
    writer = new Database(check.path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const rows = deleteRows(writer, dbPath, ids);
    if (keepSidecars) guard = openWalGuard(check.path);
    return { kind: 'deleted', rows };
  } catch (err) {
    return { kind: 'failed', reason: `rows could not be deleted (${describeError(err)})` };
  } finally {
    closeQuietly(writer);
    closeQuietly(guard);
  }
}


