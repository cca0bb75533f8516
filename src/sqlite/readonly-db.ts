import type { WalState } from './wal-state.js';
import type { OpenReadonlyOptions, ReadRoute } from './open-readonly.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { checkOpenReadonly, checkWithReadonlyDb } from '../validation/low-level-args.js';

// The public face of open-readonly.ts: the same functions, with the connection typed by the package's own
// SqliteDatabase rather than better-sqlite3's types (a devDependency users do not have). Internals use open-readonly.ts.

/**
 * An open read-only database; `close()` must be called (see {@link withReadonlyDb}).
 * @public
 */
export interface ReadonlyDb {
  /** The better-sqlite3 connection (read-only, or an in-memory image). */
  readonly db: SqliteDatabase;
  /** The sidecar state found beside the file. */
  readonly state: WalState;
  /** How the file was read. */
  readonly via: ReadRoute;
  /** Closes the connection; calling it again does nothing. */
  close(): Promise<void>;
}

/**
 * Opens a SQLite file for reading without changing its directory: in place when it has no sidecar or both, from a private
 * in-memory copy otherwise, and from the file's bytes when URI filenames are off in this process.
 * @example
 * ```ts
 * const h = await openReadonly('/home/me/.codex/state_5.sqlite', { fs });
 * try { h.db.prepare('SELECT id FROM threads').all(); } finally { await h.close(); }
 * ```
 * @public
 */
export async function openReadonly(dbPath: string, opts: OpenReadonlyOptions): Promise<ReadonlyDb> {
  checkOpenReadonly([dbPath, opts]);
  // The opener (and what it reads with) is loaded by the first open, not when @mam/core is imported.
  return (await import('./open-readonly.js')).openReadonly(dbPath, opts);
}

/**
 * Opens `dbPath` with {@link openReadonly}, runs `fn` on the handle and always closes it.
 * @public
 */
export async function withReadonlyDb<T>(dbPath: string, opts: OpenReadonlyOptions, fn: (h: ReadonlyDb) => T | Promise<T>): Promise<T> {
  checkWithReadonlyDb([dbPath, opts, fn]);
  return (await import('./open-readonly.js')).withReadonlyDb(dbPath, opts, fn);
}
