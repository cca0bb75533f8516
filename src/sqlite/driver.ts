import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// better-sqlite3 (a native addon) is loaded on the first `new Database(…)`, not when @mam/core is imported: the import of
// the package stays cheap for code that never opens a database. It is CommonJS, so a synchronous `require` loads it.
let loaded: typeof BetterSqlite3 | undefined;

function load(): typeof BetterSqlite3 {
  loaded ??= createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return loaded;
}

/**
 * The better-sqlite3 constructor, loaded when first used: `new Database(path, options)`, `Database.SqliteError`, …
 * exactly as the module's default export (the types are better-sqlite3's own, used inside the package only).
 */
const Database: typeof BetterSqlite3 = new Proxy(function LazyDatabase() {} as unknown as typeof BetterSqlite3, {
  construct: (_target, args: unknown[]) => Reflect.construct(load(), args) as object,
  apply: (_target, self: unknown, args: unknown[]) => Reflect.apply(load(), self, args) as unknown,
  get: (_target, key) => Reflect.get(load(), key) as unknown,
  has: (_target, key) => Reflect.has(load(), key),
});

// Types under the same name, so `Database.Database` and `Database.Statement` read as with the real import.
declare namespace Database {
  /** A better-sqlite3 connection. */
  type Database = BetterSqlite3.Database;
  /** A better-sqlite3 prepared statement. */
  type Statement<P extends unknown[] | object = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;
  /** better-sqlite3's constructor options. */
  type Options = BetterSqlite3.Options;
}

export default Database;
