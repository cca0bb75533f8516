import type Database from './driver.js';

// Per connection (a closed or dropped connection takes its statements with it), per SQL text and mode.
const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();
// A connection's statements are few and fixed (ids are bound, never spelled into the SQL); past this many the SQL is
// built from data, and caching it would only grow.
const MAX_PER_DB = 64;

/**
 * The prepared statement of `sql` on `db`, prepared once per connection and reused (SQLite parses the SQL and plans the
 * query once, not per row of a batch). `pluck` gives a statement in pluck mode and `raw` one in raw mode (each row an
 * array of its columns in order: no object with named keys built per row), each kept apart from the plain one. A statement
 * still busy (an iteration in progress) is never shared: a fresh one is prepared for that caller. Bind every value: SQL
 * that spells data is prepared each time once the connection's cache is full.
 */
export function prepared(db: Database.Database, sql: string, mode: 'plain' | 'pluck' | 'raw' = 'plain'): Database.Statement {
  let mine = cache.get(db);
  if (mine === undefined) cache.set(db, (mine = new Map()));
  const key = `${mode}:${sql}`;
  const hit = mine.get(key);
  if (hit !== undefined && !hit.busy) return hit;
  const stmt = db.prepare(sql);
  if (mode === 'pluck') stmt.pluck();
  else if (mode === 'raw') stmt.raw();
  if (hit === undefined && mine.size < MAX_PER_DB) mine.set(key, stmt);
  return stmt;
}
