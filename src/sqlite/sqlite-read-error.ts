import { describeError, MamError } from '../errors.js';

/**
 * Whether SQLite's result code says another connection held the lock the read needed (`SQLITE_BUSY…`, `SQLITE_LOCKED…`):
 * the file is not damaged, and the same read may work once that connection lets go.
 */
export function isBusySqliteCode(code: string | undefined): boolean {
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * A SQLite file could not be read (not a database, corrupt, permission denied, busy: another process holds its lock);
 * `data` names the path, the sidecar state and SQLite's own code.
 * @public
 */
export class SqliteReadError extends MamError {
  /** Always `SQLITE_READ_FAILED`. */
  declare readonly code: 'SQLITE_READ_FAILED';
  /** The database path that was being read. */
  readonly path: string;

  /** Builds the fault for `path` read in sidecar `state`; code `SQLITE_READ_FAILED`, SQLite's own code in `data.sqliteCode`. */
  constructor(path: string, state: string, cause: unknown) {
    const reason = describeError(cause);
    const sqliteCode = typeof cause === 'object' && cause !== null && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
    // A busy database says so in words: the plan that refuses for it names the store and why, not only SQLite's code.
    const why = isBusySqliteCode(sqliteCode) ? `it is busy, another process holds its lock (${reason})` : reason;
    super('SQLITE_READ_FAILED', `cannot read SQLite database ${path} (${state}): ${why}`, { path, state, ...(sqliteCode === undefined ? {} : { sqliteCode }) }, { cause });
    this.path = path;
  }
}
