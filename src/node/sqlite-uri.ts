/**
 * Turns on SQLite URI filenames for better-sqlite3 in this process (its addon reads `SQLITE_USE_URI` once, when the first database opens), so it must run before any `new Database()`.
 * @public
 */
export function enableSqliteUri(): void {
  process.env['SQLITE_USE_URI'] = '1';
}
