import type Database from 'better-sqlite3';
import { tableColumns, tableNames } from '../../sqlite/schema.js';

/**
 * One table column whose value names a session.
 * @public
 */
export interface HermesTarget {
  table: string;
  column: string;
}

/**
 * What a `state.db` looks like to this adapter: `known` — the reference layout, `sessions(id, cwd, started_at, …)` plus
 * tables keyed by a `session_id` column, with no triggers or virtual tables that a delete would set off — with the columns
 * naming a session (child tables first, `sessions.id` last); or `unknown`, with the reason a purge refuses.
 * @public
 */
export type HermesLayout = { kind: 'known'; targets: HermesTarget[] } | { kind: 'unknown'; reason: string };

/**
 * The columns of the `sessions` table discovery reads (`startedAt` absent on a layout without it), or null without `id`/`cwd`.
 * @public
 */
export interface HermesSessionColumns {
  table: string;
  id: string;
  cwd: string;
  startedAt?: string;
}

function findName(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted);
}

/**
 * The `sessions` table's id, cwd and started_at columns as spelled in this database, or null when it has no such table
 * with `id` and `cwd`.
 * @public
 */
export function hermesSessionColumns(db: Database.Database): HermesSessionColumns | null {
  const table = findName(tableNames(db), 'sessions');
  if (table === undefined) return null;
  const cols = tableColumns(db, table);
  const id = findName(cols, 'id');
  const cwd = findName(cols, 'cwd');
  if (id === undefined || cwd === undefined) return null;
  const startedAt = findName(cols, 'started_at');
  return startedAt === undefined ? { table, id, cwd } : { table, id, cwd, startedAt };
}

/**
 * Classifies a `state.db` (see {@link HermesLayout}).
 * @public
 */
export function hermesLayout(db: Database.Database): HermesLayout {
  const sessions = hermesSessionColumns(db);
  if (sessions?.startedAt === undefined) return { kind: 'unknown', reason: 'no sessions(id, cwd, started_at) table' };
  const schema = db.prepare('SELECT type, name, sql FROM sqlite_schema').all() as Array<{ type: string; name: string; sql: string | null }>;
  const triggers = schema.filter((s) => s.type === 'trigger').map((s) => s.name);
  if (triggers.length > 0) return { kind: 'unknown', reason: `triggers ${triggers.join(', ')}` };
  const virtual = schema.filter((s) => s.type === 'table' && /^\s*create\s+virtual\s+table/i.test(s.sql ?? '')).map((s) => s.name);
  if (virtual.length > 0) return { kind: 'unknown', reason: `virtual tables ${virtual.join(', ')}` };
  const targets: HermesTarget[] = [];
  for (const table of tableNames(db)) {
    if (table === sessions.table) continue;
    const column = findName(tableColumns(db, table), 'session_id');
    if (column !== undefined) targets.push({ table, column });
  }
  targets.push({ table: sessions.table, column: sessions.id });
  return { kind: 'known', targets };
}

/**
 * On a layout this adapter does not know, the columns that may hold a session id (`id`, `…_id`, `…session…`) of every
 * ordinary table: what residual searches so an unknown layout still shows the rows naming a conversation.
 * @public
 */
export function hermesIdLikeColumns(db: Database.Database): HermesTarget[] {
  const out: HermesTarget[] = [];
  const virtual = new Set(
    (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'").pluck().all() as string[]),
  );
  for (const table of tableNames(db)) {
    if (virtual.has(table)) continue;
    for (const column of tableColumns(db, table)) if (/(^|_)id$|session/i.test(column)) out.push({ table, column });
  }
  return out;
}
