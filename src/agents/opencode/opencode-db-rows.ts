import type Database from 'better-sqlite3';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { prepared } from '../../sqlite/prepared.js';
import { quoteIdent as q, tableColumns, tableNames } from '../../sqlite/schema.js';
import { descendantSessions } from './opencode-sessions.js';
import { detectOpencodeLayout, isKnownLayout, type OpencodeLayout } from './opencode-layout.js';

/** Columns that name a session in any table (1.x: `session_id`, `event*.aggregate_id`, `session.parent_id`). */
const NAMING_COLUMNS = ['session_id', 'sessionid', 'aggregate_id', 'aggregateid', 'parent_id', 'parentid'];
/** Tables whose `id` is a session id. */
const SESSION_TABLES = ['session', 'session_v2'];

/**
 * What the database holds of one conversation: its rows (and its child sessions' rows), whether the layout is known,
 * and where the session lives.
 * @public
 */
export interface OpencodeDbFindings {
  /** The schema found. */
  layout: OpencodeLayout;
  /** True when the layout is one this adapter knows. */
  known: boolean;
  /** Rows naming the id, then rows naming each child session (their `child` set). */
  rows: Artifact[];
  /** Why a purge refuses (an unknown layout whose rows name the id), or null. */
  refusal: LeftArtifact | null;
  /** The child sessions at any depth, both schemas. */
  children: string[];
  /** The session has a `session_v2` row (2.x: its CLI deletes it). */
  inV2: boolean;
}

function pairs(db: Database.Database, known: boolean): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const table of tableNames(db)) {
    const cols = tableColumns(db, table);
    const isSessionTable = SESSION_TABLES.includes(table.toLowerCase());
    // On an unknown layout every table's id column is looked at: anything naming the id refuses the purge.
    const idCol = isSessionTable || !known ? cols.find((c) => c.toLowerCase() === 'id') : undefined;
    if (idCol !== undefined) out.push([table, idCol]);
    for (const c of cols) if (NAMING_COLUMNS.includes(c.toLowerCase())) out.push([table, c]);
  }
  return out;
}

function count(db: Database.Database, table: string, column: string, id: string): number {
  return prepared(db, `SELECT count(*) FROM ${q(table)} WHERE ${q(column)} = ?`, 'pluck').get(id) as number;
}

/**
 * Reads (through an already read-only connection) everything an OpenCode database holds of the conversation `id`.
 * On an unknown layout, rows naming the id give the refusal `<db> (unknown layout: refusing to purge)`.
 * @public
 */
export function opencodeDbFindings(db: Database.Database, label: string, id: string): OpencodeDbFindings {
  const layout = detectOpencodeLayout(db);
  const known = isKnownLayout(layout);
  const children = known ? descendantSessions(db, layout, id) : [];
  const targets = pairs(db, known);
  const rows: Artifact[] = [];
  for (const who of [id, ...children]) {
    for (const [table, column] of targets) {
      const n = count(db, table, column, who);
      if (n > 0) rows.push({ kind: 'rows', db: label, table, column, count: n, ...(who === id ? {} : { child: who }) });
    }
  }
  const refusal: LeftArtifact | null = !known && rows.length > 0 ? { kind: 'file', path: label, reason: 'unknown layout: refusing to purge' } : null;
  const inV2 = layout.v2 !== null && count(db, layout.v2.table, layout.v2.id, id) > 0;
  return { layout, known, rows, refusal, children, inV2 };
}
