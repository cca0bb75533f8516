import type { SqliteDatabase } from './sqlite-database.js';

/**
 * Quotes an SQL identifier read from disk (a table or column name) with double quotes, doubling any inside.
 * @public
 */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The names of the ordinary tables of a database (SQLite's own `sqlite_*` tables left out), sorted.
 * @public
 */
export function tableNames(db: SqliteDatabase): string[] {
  return db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
    .pluck()
    .all() as string[];
}

/**
 * The column names of a table in declaration order; empty when there is no such table.
 * @public
 */
export function tableColumns(db: SqliteDatabase, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as Array<{ name: string }>).map((c) => c.name);
}

/**
 * The database's `PRAGMA user_version` (an application's schema version number).
 * @public
 */
export function userVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}
