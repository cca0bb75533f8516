import Database from '../../sqlite/driver.js';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { LeftArtifact, RowsArtifact } from '../../purge/artifact.js';
import { isAgySqliteFile } from '../common/read-text.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { tableColumns, tableNames } from '../../sqlite/schema.js';

/** The shared index's table and the column naming each row's conversation. */
const TABLE = 'conversation_summaries';
const COLUMN = 'conversation_id';
const BUSY_TIMEOUT_MS = 5000;

/**
 * What the shared `conversation_summaries.db` says of some conversations: the rows naming each (as `rows` artifacts),
 * or why it could not be read (`failure`; no file at all is no rows and no failure).
 * @public
 */
export interface AgySummaryRows {
  /** The rows naming any of the ids (one entry, absent when there are none). */
  rows: RowsArtifact[];
  /** The index and why it could not be read or written, or null. */
  failure: LeftArtifact | null;
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

function failed(db: string, reason: string): AgySummaryRows {
  return { rows: [], failure: { kind: 'file', path: db, reason } };
}

function rowsOf(db: string, count: number): AgySummaryRows['rows'] {
  return count > 0 ? [{ kind: 'rows', db, table: TABLE, column: COLUMN, count }] : [];
}

/**
 * True when the shared index has the table and column this adapter reads and purges (`conversation_summaries.conversation_id`).
 * @public
 */
export function hasAgySummaryIndex(db: Database.Database): boolean {
  return tableNames(db).includes(TABLE) && tableColumns(db, TABLE).includes(COLUMN);
}

/**
 * Counts the index rows naming each id, read-only (its directory left as found); a missing or empty index or a missing
 * table is no rows, a link, non-regular or non-SQLite file in its place a failure (never opened). Never throws.
 * @public
 */
export async function agySummaryRows(fs: FileSystemPort, dbPath: string, ids: readonly string[]): Promise<AgySummaryRows> {
  let kind;
  let size;
  try {
    ({ kind, size } = await fs.lstat(dbPath));
  } catch {
    return { rows: [], failure: null };
  }
  if (kind !== 'file') return failed(dbPath, 'not a regular file: not read');
  if (ids.length === 0 || size === 0) return { rows: [], failure: null };
  if (!(await isAgySqliteFile(fs, dbPath))) return failed(dbPath, 'not a SQLite database: not read');
  try {
    return await withReadonlyDb(dbPath, { fs }, (h) => {
      if (!hasAgySummaryIndex(h.db)) return { rows: [], failure: null };
      const stmt = h.db.prepare(`SELECT ${COLUMN} AS id, count(*) AS n FROM ${TABLE} WHERE ${COLUMN} IN (${placeholders(ids.length)}) GROUP BY ${COLUMN}`);
      const count = (stmt.all(...ids) as Array<{ n: number }>).reduce((sum, r) => sum + r.n, 0);
      return { rows: rowsOf(dbPath, count), failure: null };
    });
  } catch (err) {
    return failed(dbPath, `unreadable: ${describeError(err)}`);
  }
}

/**
 * Deletes the index rows naming the ids, in one transaction with `secure_delete` on (the deleted text is overwritten in
 * the pages SQLite writes) — the only read-write open of an agy database, refused by {@link dbWriteRefusal} when the file
 * or a sidecar is a link, not regular, or hard-linked. Returns the rows deleted, or why nothing was. Never throws.
 * @public
 */
export async function deleteAgySummaryRows(fs: FileSystemPort, dbPath: string, ids: readonly string[]): Promise<AgySummaryRows> {
  const before = await agySummaryRows(fs, dbPath, ids);
  if (before.failure !== null || before.rows.length === 0) return before;
  const refusal = await dbWriteRefusal(fs, dbPath);
  if (refusal !== null) return failed(dbPath, `${refusal}: not purged`);
  try {
    const conn = new Database(dbPath, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    try {
      conn.pragma('secure_delete = ON');
      conn.pragma('foreign_keys = OFF');
      let count = 0;
      conn.transaction(() => {
        const del = conn.prepare(`DELETE FROM ${TABLE} WHERE ${COLUMN} = ?`);
        for (const id of ids) count += del.run(id).changes;
      }).immediate();
      return { rows: rowsOf(dbPath, count), failure: null };
    } finally {
      conn.close();
    }
  } catch (err) {
    return failed(dbPath, `${describeError(err)}: not purged`);
  }
}
