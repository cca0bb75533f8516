import type Database from 'better-sqlite3';
import { schemaLayout, type SchemaLayout, type StateLayout, withBackfill } from './state-layout.js';
import { cwdIndexLead, type CwdIndex } from './thread-query.js';
import { tableColumns } from '../../sqlite/schema.js';

/**
 * What discovery needs to know of a state database's schema: its layout (without the backfill status) and the index
 * that serves a query by cwd.
 * @public
 */
export interface StateSchema {
  layout: SchemaLayout;
  cwdIndex: CwdIndex;
  /** The `threads.source` column (it says whether a thread is a sub-agent's), null when the table has none. */
  source: string | null;
}

// Every row of the schema in one string, built by SQLite: what the schema decides is remembered under it (rows in
// scan order; were the order ever to differ, the text would not match and the schema would just be read again).
const SCHEMA_TEXT = "SELECT group_concat(type || char(0) || name || char(0) || tbl_name || char(0) || ifnull(sql, ''), char(1)) FROM sqlite_schema";
const REMEMBERED = 8;

/**
 * Every row of a database's schema in one string (type, name, table and SQL of each), built by SQLite in one statement:
 * what a pure function of the schema decides can be remembered under it.
 * @public
 */
export function schemaText(db: Database.Database): string {
  return String(db.prepare(SCHEMA_TEXT).pluck().get() ?? '');
}
// Most recent last; compared by ===, which for strings of different lengths answers at once (no hash of the text).
const memo: Array<{ text: string; schema: StateSchema }> = [];

/**
 * The schema facts of a state database, read once per distinct schema: both are pure functions of the schema's text, so
 * a database whose schema changed in any way (a migration, another file in its place) is read afresh, and an unknown
 * layout stays unknown. Costs one statement when the schema was seen before.
 * @public
 */
export function stateSchema(db: Database.Database): StateSchema {
  const text = schemaText(db);
  const seen = memo.find((m) => m.text === text);
  if (seen !== undefined) return seen.schema;
  const layout = schemaLayout(db);
  const source = layout.kind === 'known' ? (tableColumns(db, layout.table).find((c) => c.toLowerCase() === 'source') ?? null) : null;
  const schema: StateSchema = { layout, cwdIndex: layout.kind === 'known' ? cwdIndexLead(db, layout) : null, source };
  if (memo.length >= REMEMBERED) memo.shift();
  memo.push({ text, schema });
  return schema;
}

/**
 * The schema facts and the layout with its backfill status: what a discover or verify asks of a state DB before its query.
 * @public
 */
export function stateProbe(db: Database.Database): { schema: StateSchema; layout: StateLayout } {
  const schema = stateSchema(db);
  return { schema, layout: withBackfill(db, schema.layout) };
}
