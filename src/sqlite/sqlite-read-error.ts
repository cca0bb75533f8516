import { describeError, MamError } from '../errors.js';

/**
 * A SQLite file could not be read (not a database, corrupt, permission denied); `data` names the path and the sidecar state.
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
    super('SQLITE_READ_FAILED', `cannot read SQLite database ${path} (${state}): ${reason}`, { path, state, ...(sqliteCode === undefined ? {} : { sqliteCode }) }, { cause });
    this.path = path;
  }
}
