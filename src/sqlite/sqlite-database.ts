/**
 * A prepared statement of a {@link SqliteDatabase}: the part of better-sqlite3's `Statement` the library and its users need.
 * @public
 */
export interface SqliteStatement {
  /** Runs the statement and returns every row (objects, or values with `pluck()`, arrays with `raw()`). */
  all(...params: unknown[]): unknown[];
  /** Runs the statement and returns its first row, or `undefined` when there is none. */
  get(...params: unknown[]): unknown;
  /** Runs a statement that returns no rows; the number of rows it changed and the last inserted rowid. */
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  /** Iterates over the rows one at a time. */
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Returns only the first column of each row (`pluck(false)` turns that off). */
  pluck(toggle?: boolean): this;
  /** Returns each row as an array of its column values (`raw(false)` turns that off). */
  raw(toggle?: boolean): this;
  /** The columns the statement returns. */
  columns(): { name: string; column: string | null; table: string | null; database: string | null; type: string | null }[];
  /** The SQL text it was prepared from. */
  readonly source: string;
  /** True when the statement returns rows. */
  readonly reader: boolean;
  /** True when the statement does not change the database. */
  readonly readonly: boolean;
}

/**
 * An open SQLite connection (a better-sqlite3 `Database`), typed by the part the library's API exposes, so the package's
 * types never depend on a type package its users do not install.
 * @public
 */
export interface SqliteDatabase {
  /** Prepares one SQL statement. */
  prepare(source: string): SqliteStatement;
  /** Runs SQL text that returns no rows (one or more statements). */
  exec(source: string): this;
  /** Runs a PRAGMA and returns its rows (its value with `{ simple: true }`). */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** Closes the connection. */
  close(): this;
  /** True while the connection is open. */
  readonly open: boolean;
  /** True when the connection was opened read-only. */
  readonly readonly: boolean;
  /** True when the connection is an in-memory database. */
  readonly memory: boolean;
  /** True while a transaction is open. */
  readonly inTransaction: boolean;
  /** The path (or URI) the connection was opened with. */
  readonly name: string;
}
