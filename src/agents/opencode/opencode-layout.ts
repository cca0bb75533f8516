import type Database from 'better-sqlite3';
import { prepared } from '../../sqlite/prepared.js';

/**
 * One OpenCode session table and the names of the columns the adapter reads from it.
 * @public
 */
export interface OpencodeSessionTable {
  /** `session` (1.x) or `session_v2` (2.x). */
  readonly table: string;
  readonly id: string;
  /** The session's cwd (`session.directory`). */
  readonly directory: string;
  /** The parent session of a child (sub-agent) session, when the table has the column. */
  readonly parent: string | null;
  /** Creation time (epoch milliseconds in 1.x), when the table has the column. */
  readonly created: string | null;
}

/**
 * The session tables an OpenCode database has: the 1.x `session` table, the 2.x `session_v2` table, both (a migrated
 * database), or neither (a layout the adapter does not know, on which it refuses destructive work).
 * @public
 */
export interface OpencodeLayout {
  readonly v1: OpencodeSessionTable | null;
  readonly v2: OpencodeSessionTable | null;
}

function pick(columns: readonly string[], wanted: readonly string[]): string | null {
  for (const w of wanted) {
    const hit = columns.find((c) => c.toLowerCase() === w.toLowerCase());
    if (hit !== undefined) return hit;
  }
  return null;
}

function sessionTable(columnsOf: ReadonlyMap<string, string[]>, name: string): OpencodeSessionTable | null {
  const table = [...columnsOf.keys()].find((t) => t.toLowerCase() === name);
  if (table === undefined) return null;
  const cols = columnsOf.get(table) ?? [];
  const id = pick(cols, ['id']);
  const directory = pick(cols, ['directory']);
  if (id === null || directory === null) return null;
  return { table, id, directory, parent: pick(cols, ['parent_id', 'parentID']), created: pick(cols, ['time_created', 'timeCreated', 'created_at']) };
}

// One statement for both candidate tables and their columns: discovery runs this on every call.
const SCHEMA_SQL =
  "SELECT m.name AS t, p.name AS c FROM sqlite_schema AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table' AND lower(m.name) IN ('session', 'session_v2') ORDER BY m.name, p.cid";

/**
 * Reads which session tables (and columns) an OpenCode database has, from its schema only.
 * @public
 */
export function detectOpencodeLayout(db: Database.Database): OpencodeLayout {
  const columnsOf = new Map<string, string[]>();
  for (const { t, c } of prepared(db, SCHEMA_SQL).all() as Array<{ t: string; c: string }>) {
    const cols = columnsOf.get(t);
    if (cols === undefined) columnsOf.set(t, [c]);
    else cols.push(c);
  }
  return { v1: sessionTable(columnsOf, 'session'), v2: sessionTable(columnsOf, 'session_v2') };
}

/**
 * True when the database has a session table the adapter knows (1.x `session` or 2.x `session_v2`).
 * @public
 */
export function isKnownLayout(layout: OpencodeLayout): boolean {
  return layout.v1 !== null || layout.v2 !== null;
}

/**
 * The session tables of a layout, 2.x first.
 * @public
 */
export function sessionTables(layout: OpencodeLayout): OpencodeSessionTable[] {
  return [layout.v2, layout.v1].filter((t): t is OpencodeSessionTable => t !== null);
}

// The text the layout is derived from: both candidate session tables' CREATE statements.
const SESSION_TABLES_SQL = "SELECT group_concat(name || ' ' || coalesce(sql, ''), char(10)) AS s FROM sqlite_schema WHERE type = 'table' AND lower(name) IN ('session', 'session_v2')";

/**
 * Remembers each database's layout under the `CREATE` text of its session tables (the only source of the layout; an
 * added column rewrites it), so a repeated discovery reads that text instead of the tables' columns. A different file at the same
 * path, or the same file after a migration, is read afresh: a schema counter alone could repeat.
 * @public
 */
export class OpencodeLayoutCache {
  readonly #byPath = new Map<string, { version: string; layout: OpencodeLayout }>();

  /** The layout of the open database `db` found at `path`. */
  layoutOf(db: Database.Database, path: string): OpencodeLayout {
    const row = prepared(db, SESSION_TABLES_SQL).get() as { s: string | null } | undefined;
    const version = row?.s ?? '';
    const known = this.#byPath.get(path);
    if (known !== undefined && known.version === version) return known.layout;
    const layout = detectOpencodeLayout(db);
    if (this.#byPath.size >= 64) this.#byPath.clear();
    this.#byPath.set(path, { version, layout });
    return layout;
  }
}
