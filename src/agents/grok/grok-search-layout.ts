import type Database from 'better-sqlite3';
import { tableColumns, tableNames } from '../../sqlite/schema.js';

/** The schema version grok's session search writes (`xai-grok-session-search/src/fts.rs`). */
const KNOWN_VERSION = '4';
/** The triggers that keep the FTS index in step with `session_docs`: a delete there removes the FTS row too. */
const KNOWN_TRIGGERS = new Set(['session_docs_ai', 'session_docs_ad', 'session_docs_au']);

/**
 * Whether a search database is the layout grok writes — `session_docs(session_id, …)`, its content-synced FTS5 table and
 * the three triggers, `meta.session_search_schema_version` 4 — or why not (a purge then refuses to write it).
 * @public
 */
export type GrokSearchLayout = { kind: 'known' } | { kind: 'unknown'; reason: string };

/**
 * Classifies an open search database (see {@link GrokSearchLayout}).
 * @public
 */
export function grokSearchLayout(db: Database.Database): GrokSearchLayout {
  const tables = tableNames(db);
  if (!tables.includes('session_docs') || !tableColumns(db, 'session_docs').includes('session_id')) {
    return { kind: 'unknown', reason: 'no session_docs(session_id) table' };
  }
  if (tables.includes('meta')) {
    const version = db.prepare("SELECT value FROM meta WHERE key = 'session_search_schema_version'").pluck().get();
    if (version !== undefined && version !== KNOWN_VERSION) return { kind: 'unknown', reason: `session_search_schema_version ${String(version)}` };
  }
  const triggers = db.prepare("SELECT name, tbl_name AS tbl FROM sqlite_schema WHERE type = 'trigger'").all() as Array<{ name: string; tbl: string }>;
  const other = triggers.filter((t) => !KNOWN_TRIGGERS.has(t.name) || t.tbl !== 'session_docs').map((t) => t.name);
  if (other.length > 0) return { kind: 'unknown', reason: `triggers ${other.join(', ')}` };
  return { kind: 'known' };
}

/**
 * True when the database has grok's FTS table over `session_docs` (whose segments a purge merges so no term of the
 * deleted text stays in the index).
 * @public
 */
export function hasGrokFts(db: Database.Database): boolean {
  return tableNames(db).includes('session_docs_fts');
}
