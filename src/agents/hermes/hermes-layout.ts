import type Database from 'better-sqlite3';
import { prepared } from '../../sqlite/prepared.js';
import { tableColumns, tableNames } from '../../sqlite/schema.js';

/**
 * One table column whose value names a session.
 * @public
 */
export interface HermesTarget {
  /** The table. */
  table: string;
  /** The column holding a session id. */
  column: string;
}

/**
 * What a `state.db` looks like to this adapter: `known` — Hermes' schema 22 (FTS5 tables, their sync triggers, the
 * display triggers) or a later one that only adds tables/columns — with the columns whose rows a purge deletes (child
 * tables first, `sessions.id` last) and the FTS5 tables present; or `unknown`, with the reason a purge refuses.
 * @public
 */
export type HermesLayout =
  | { kind: 'known'; targets: HermesTarget[]; sessions: HermesSessionColumns; fts: string[] }
  | { kind: 'unknown'; reason: string };

/**
 * The columns of the `sessions` table discovery reads, as spelled in this database (absent when the layout lacks them).
 * @public
 */
export interface HermesSessionColumns {
  /** The table's name. */
  table: string;
  /** The session id. */
  id: string;
  /** The cwd at creation. */
  cwd: string;
  /** `started_at`, epoch seconds. */
  startedAt?: string;
  /** `git_repo_root` (TUI/web). */
  gitRepoRoot?: string;
  /** `parent_session_id` (compression, branch and delegate children). */
  parent?: string;
  /** `ended_at` (null while the session is open). */
  endedAt?: string;
  /** `end_reason` (`compression` ends a session continued in a child). */
  endReason?: string;
  /** `source` (`cli`, `subagent`, `acp`, …). */
  source?: string;
  /** `model_config` JSON (`_delegate_from`, `_branched_from`, ACP's `cwd`). */
  modelConfig?: string;
}

// Tables whose rows a purge deletes, by the column naming the session (schema 22 to 30).
const DELETED: Readonly<Record<string, readonly string[]>> = {
  messages: ['session_id'],
  session_model_usage: ['session_id'],
  compression_locks: ['session_id'],
  session_turn_leases: ['conversation_id', 'session_id'],
  async_delegations: ['origin_session', 'origin_session_id', 'origin_ui_session_id', 'parent_session_id'],
};

// Known tables whose session-like columns are routing keys, not session ids (or none at all): never deleted from.
const SHARED: Readonly<Record<string, readonly string[]>> = {
  sessions: ['id', 'parent_session_id', 'session_key'],
  schema_version: [],
  system_prompts: [],
  state_meta: [],
  gateway_routing: ['session_key'],
  gateway_hygiene_state: ['session_key'],
  conversation_generations: ['session_key'],
  gateway_heartbeats: [],
};

const FTS_TABLES = ['messages_fts', 'messages_fts_trigram', 'messages_fts_cjk'] as const;
const FTS_SHADOW = /^(messages_fts(?:_trigram|_cjk)?)_(?:data|idx|content|docsize|config)$/;
const KNOWN_TRIGGERS = new Set([
  ...FTS_TABLES.flatMap((t) => ['insert', 'delete', 'update'].map((op) => `${t}_${op}`)),
  'messages_display_order_insert',
  'messages_display_visibility_update',
  'messages_display_identity_update',
  'messages_display_identity_delete',
]);
const SESSION_LIKE = /session|conversation/i;

function findName(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted);
}

// `tableNames` and `tableColumns` as statements prepared once per connection (the table's name is bound, not quoted in).
const TABLES_SQL = "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
const COLUMNS_SQL = 'SELECT name FROM pragma_table_info(?) ORDER BY cid';

/**
 * The `sessions` table's columns as spelled in this database, or null when it has no such table with `id` and `cwd`.
 * @public
 */
export function hermesSessionColumns(db: Database.Database): HermesSessionColumns | null {
  const table = findName(prepared(db, TABLES_SQL, 'pluck').all() as string[], 'sessions');
  if (table === undefined) return null;
  const cols = prepared(db, COLUMNS_SQL, 'pluck').all(table) as string[];
  const id = findName(cols, 'id');
  const cwd = findName(cols, 'cwd');
  if (id === undefined || cwd === undefined) return null;
  const out: HermesSessionColumns = { table, id, cwd };
  const optional = [['startedAt', 'started_at'], ['gitRepoRoot', 'git_repo_root'], ['parent', 'parent_session_id'], ['endedAt', 'ended_at'], ['endReason', 'end_reason'], ['source', 'source'], ['modelConfig', 'model_config']] as const;
  for (const [key, name] of optional) {
    const found = findName(cols, name);
    if (found !== undefined) out[key] = found;
  }
  return out;
}

interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

function unknownSchemaObjects(schema: readonly SchemaEntry[]): string | null {
  const virtual = schema.filter((s) => s.type === 'table' && /^\s*create\s+virtual\s+table/i.test(s.sql ?? '')).map((s) => s.name);
  const strangeVirtual = virtual.filter((v) => !(FTS_TABLES as readonly string[]).includes(v));
  if (strangeVirtual.length > 0) return `virtual tables ${strangeVirtual.join(', ')}`;
  const triggers = schema.filter((s) => s.type === 'trigger');
  const strange = triggers.filter((t) => !KNOWN_TRIGGERS.has(t.name) || t.tbl_name !== 'messages').map((t) => t.name);
  if (strange.length > 0) return `triggers ${strange.join(', ')}`;
  const names = new Set(triggers.map((t) => t.name));
  // Without its delete trigger an FTS table would keep the text of the messages a purge deletes.
  const unsynced = virtual.filter((v) => !names.has(`${v}_delete`));
  if (unsynced.length > 0) return `virtual tables ${unsynced.join(', ')} without their delete triggers`;
  return null;
}

function referencesSessions(db: Database.Database, table: string, sessions: string): string[] {
  const fks = db.prepare(`SELECT "table" AS t, "from" AS f FROM pragma_foreign_key_list(?)`).all(table) as Array<{ t: string; f: string }>;
  return fks.filter((fk) => fk.t.toLowerCase() === sessions.toLowerCase()).map((fk) => fk.f);
}

/**
 * Classifies a `state.db` (see {@link HermesLayout}). Every table is checked: one naming a session (a session-like
 * column, or a foreign key to `sessions`) by a column this adapter does not know makes the layout unknown.
 * @public
 */
export function hermesLayout(db: Database.Database): HermesLayout {
  const sessions = hermesSessionColumns(db);
  if (sessions?.startedAt === undefined) return { kind: 'unknown', reason: 'no sessions(id, cwd, started_at) table' };
  const schema = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as SchemaEntry[];
  const odd = unknownSchemaObjects(schema);
  if (odd !== null) return { kind: 'unknown', reason: odd };
  const targets: HermesTarget[] = [];
  const virtual = new Set(FTS_TABLES as readonly string[]);
  for (const table of tableNames(db)) {
    if (virtual.has(table) || FTS_SHADOW.test(table) || /^sqlite_/i.test(table)) continue;
    const key = table === sessions.table ? 'sessions' : table;
    const deleted = DELETED[key];
    const known = deleted ?? SHARED[key];
    const cols = tableColumns(db, table);
    const named = new Set([...cols.filter((c) => SESSION_LIKE.test(c)), ...referencesSessions(db, table, sessions.table)]);
    const strange = [...named].filter((c) => known === undefined || !known.includes(c));
    if (strange.length > 0) return { kind: 'unknown', reason: `${table}.${strange.join(`, ${table}.`)} name a session by a column this adapter does not know` };
    for (const column of deleted ?? []) if (cols.includes(column)) targets.push({ table, column });
  }
  targets.push({ table: sessions.table, column: sessions.id });
  const fts = schema.filter((s) => s.type === 'table' && virtual.has(s.name)).map((s) => s.name);
  return { kind: 'known', targets, sessions, fts };
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
    if (virtual.has(table) || FTS_SHADOW.test(table)) continue;
    for (const column of tableColumns(db, table)) if (/(^|_)id$|session/i.test(column)) out.push({ table, column });
  }
  return out;
}
