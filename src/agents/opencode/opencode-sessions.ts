import type Database from 'better-sqlite3';
import { canonicalOpencodeId } from './opencode-ids.js';
import { prepared } from '../../sqlite/prepared.js';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { type OpencodeLayout, type OpencodeSessionTable, sessionTables } from './opencode-layout.js';

/**
 * One session row as the adapter sees it, from either schema.
 * @public
 */
export interface OpencodeSessionRow {
  id: string;
  directory: string;
  parent: string | null;
  /** Creation time in epoch milliseconds, or null when unknown. */
  createdMs: number | null;
  /** The table it came from. */
  table: string;
}

// 1.x stores milliseconds; a value that small can only be seconds.
function toMs(v: unknown): number | null {
  if (typeof v !== 'number' && typeof v !== 'bigint') return null;
  const n = Number(v);
  if (!Number.isFinite(n)) return null;
  return n < 1e11 ? n * 1000 : n;
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * A directory without trailing separators, so `/ws/` and `/ws` compare equal.
 * @public
 */
export function trimDir(dir: string): string {
  return dir.length > 1 ? dir.replace(/\/+$/, '') || '/' : dir;
}

// The SQL of one session table, built once per table description (a remembered layout keeps its table objects): the
// statements are prepared once per connection by `prepared`, and the text is not rebuilt per id or per call.
interface TableSql {
  /** The row of one id. */
  byId: string;
  /** The rows of a JSON array of ids, each with the id asked (`q`): one statement for a batch. */
  byIds: string;
  /** The direct children of one parent (null: the table has no parent column). */
  children: string | null;
  /** The top-level sessions of N directories, by `${N}:${since?}`. */
  top: Map<string, string>;
}
const sqlOf = new WeakMap<OpencodeSessionTable, TableSql>();

function tableSql(t: OpencodeSessionTable): TableSql {
  let s = sqlOf.get(t);
  if (s === undefined) {
    const select = `SELECT ${q(t.id)} AS id, ${q(t.directory)} AS directory, ${t.parent === null ? 'NULL' : q(t.parent)} AS parent, ${t.created === null ? 'NULL' : q(t.created)} AS created FROM ${q(t.table)}`;
    const children = t.parent === null ? null : `SELECT ${q(t.id)} FROM ${q(t.table)} WHERE ${q(t.parent)} = ?`;
    // CROSS JOIN keeps the order: each asked id is looked up by the id column (its index), as `byId` does, with the same comparison.
    // Every column qualified: json_each has `id` and `parent` columns of its own.
    const col = (c: string | null): string => (c === null ? 'NULL' : `s.${q(c)}`);
    const byIds = `SELECT j.value AS q, ${col(t.id)} AS id, ${col(t.directory)} AS directory, ${col(t.parent)} AS parent, ${col(t.created)} AS created FROM json_each(?) AS j CROSS JOIN ${q(t.table)} AS s ON s.${q(t.id)} = j.value`;
    sqlOf.set(t, (s = { byId: `${select} WHERE ${q(t.id)} = ?`, byIds, children, top: new Map() }));
  }
  return s;
}

// One table's top-level sessions of `n` directories (bound), created at or after a bound time when `since`.
function topSql(t: OpencodeSessionTable, n: number, since: boolean, times: boolean): string {
  const cache = tableSql(t).top;
  const key = `${n}:${since ? 1 : 0}:${times ? 1 : 0}`;
  let sql = cache.get(key);
  if (sql === undefined) {
    const ms = t.created === null ? 'NULL' : `(CASE WHEN ${q(t.created)} < 100000000000 THEN ${q(t.created)} * 1000 ELSE ${q(t.created)} END)`;
    const top = t.parent === null ? '' : ` AND (${q(t.parent)} IS NULL OR ${q(t.parent)} = '')`;
    const after = since ? ` AND ${ms} >= ?` : '';
    // Without the times, the ids alone (one column, read in pluck mode), still ordered by them.
    sql = `SELECT ${q(t.id)} AS id${times ? `, ${ms} AS ms` : ''} FROM ${q(t.table)} WHERE ${q(t.directory)} IN (${Array.from({ length: n }, () => '?').join(', ')})${top}${after} ORDER BY ${times ? 'ms' : ms} DESC, ${q(t.id)} ASC`;
    if (cache.size < 16) cache.set(key, sql);
  }
  return sql;
}

function toRow(t: OpencodeSessionTable, r: Record<string, unknown>): OpencodeSessionRow | null {
  const id = typeof r['id'] === 'string' ? canonicalOpencodeId(r['id']) : null;
  const directory = text(r['directory']);
  if (id === null || directory === null) return null;
  return { id, directory: trimDir(directory), parent: text(r['parent']), createdMs: toMs(r['created']), table: t.table };
}

/**
 * The top-level (non-child) sessions whose cwd is one of `dirs`, created at or after `sinceMs` when given, newest first
 * (creation time, then id: OpenCode ids sort newest first); an id in both schemas counts once.
 * @public
 */
export function workspaceSessions(db: Database.Database, layout: OpencodeLayout, dirs: readonly string[], sinceMs?: number): string[] {
  const tables = sessionTables(layout);
  if (dirs.length === 0 || tables.length === 0) return [];
  if (tables.length === 1) return topSessions(db, tables[0] as OpencodeSessionTable, dirs, sinceMs, false).map(([id]) => id);
  // Both schemas (a migrated database): merge, an id in both counting once with its later time.
  const found = new Map<string, number | null>();
  for (const [id, ms] of tables.flatMap((t) => topSessions(db, t, dirs, sinceMs, true))) {
    const had = found.get(id);
    if (had === undefined || (ms ?? -1) > (had ?? -1)) found.set(id, ms);
  }
  return [...found].sort(([ia, ta], [ib, tb]) => (tb ?? -1) - (ta ?? -1) || (ia < ib ? -1 : ia > ib ? 1 : 0)).map(([id]) => id);
}

// One table's top-level sessions in `dirs`, newest first, filtered and ordered by SQLite (seconds read as milliseconds);
// the times are fetched only when a merge needs them (discovery's hot path reads ids alone).
function topSessions(db: Database.Database, t: OpencodeSessionTable, dirs: readonly string[], sinceMs: number | undefined, times: boolean): Array<[string, number | null]> {
  if (sinceMs !== undefined && t.created === null) return [];
  const args = [...dirs, ...(sinceMs === undefined ? [] : [sinceMs])];
  const out: Array<[string, number | null]> = [];
  if (!times) {
    for (const raw of prepared(db, topSql(t, dirs.length, sinceMs !== undefined, false), 'pluck').all(...args) as unknown[]) {
      const id = canonicalOpencodeId(raw);
      if (id !== null) out.push([id, null]);
    }
    return out;
  }
  const rows = prepared(db, topSql(t, dirs.length, sinceMs !== undefined, true)).all(...args) as Array<{ id: unknown; ms: unknown }>;
  for (const r of rows) {
    const id = typeof r.id === 'string' ? canonicalOpencodeId(r.id) : null;
    if (id !== null) out.push([id, toMs(r.ms)]);
  }
  return out;
}

/**
 * Every row (both schemas) of the session `id`.
 * @public
 */
export function sessionRows(db: Database.Database, layout: OpencodeLayout, id: string): OpencodeSessionRow[] {
  const out: OpencodeSessionRow[] = [];
  for (const t of sessionTables(layout)) {
    for (const raw of prepared(db, tableSql(t).byId).all(id) as Record<string, unknown>[]) {
      const row = toRow(t, raw);
      if (row !== null) out.push(row);
    }
  }
  return out;
}

/**
 * {@link sessionRows} of many ids in one statement per table: every row (both schemas) of each id, by id (an id with no
 * row is absent).
 * @public
 */
export function sessionRowsOf(db: Database.Database, layout: OpencodeLayout, ids: readonly string[]): Map<string, OpencodeSessionRow[]> {
  const out = new Map<string, OpencodeSessionRow[]>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return out;
  const json = JSON.stringify(unique);
  for (const t of sessionTables(layout)) {
    for (const raw of prepared(db, tableSql(t).byIds).all(json) as Record<string, unknown>[]) {
      const asked = raw['q'];
      const row = toRow(t, raw);
      if (typeof asked !== 'string' || row === null) continue;
      const list = out.get(asked);
      if (list === undefined) out.set(asked, [row]);
      else list.push(row);
    }
  }
  return out;
}

/** At most this many descendants are collected (a cycle or a runaway tree stops there). */
const MAX_DESCENDANTS = 10_000;

/**
 * The child sessions of `id` at any depth, in both schemas, parents before their children; cycle-safe.
 * @public
 */
export function descendantSessions(db: Database.Database, layout: OpencodeLayout, id: string): string[] {
  const tables = sessionTables(layout).filter((t) => t.parent !== null);
  const seen = new Set([id]);
  const out: string[] = [];
  let frontier = [id];
  while (frontier.length > 0 && out.length < MAX_DESCENDANTS) {
    const next: string[] = [];
    for (const parent of frontier) {
      for (const t of tables) {
        const ids = prepared(db, tableSql(t).children as string, 'pluck').all(parent) as unknown[];
        for (const raw of ids) {
          if (typeof raw !== 'string' || raw === '' || seen.has(raw)) continue;
          seen.add(raw);
          out.push(raw);
          next.push(raw);
        }
      }
    }
    frontier = next;
  }
  return out.slice(0, MAX_DESCENDANTS);
}
