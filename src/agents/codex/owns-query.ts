import type Database from 'better-sqlite3';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { schemaLayout } from './state-layout.js';
import { schemaText } from './state-schema.js';
import { threadColumns } from './thread-columns.js';
import { rolloutPathPattern } from './rollout-name.js';
import { subagentParent } from './rollout-head.js';
import { tableColumns } from '../../sqlite/schema.js';

/**
 * What one Codex database's schema says an ownership look by id must ask: one statement telling whether any row the
 * thread owns is there (the `threads` row by its primary key, every other thread-id column by equality — through the
 * index Codex keeps on it where there is one — and the rollout-path columns naming its rollout), and, for a state DB of the
 * known layout with a `source` column, the `threads` table to ask for sub-agent threads naming it as their parent.
 * @public
 */
export interface OwnsQuery {
  /** The statement (named parameters: `id`, its `upper`-case spelling, the rollout-path `pattern`); null when no column names threads. */
  rows: string | null;
  /** The sub-agent look of a known-layout state DB (its `threads` table, id and source columns), or null. */
  subagents: { table: string; id: string; source: string } | null;
  /** For a state DB: the `threads` layout is the known one. */
  known: boolean;
  /** For a state DB: the `backfill_state` table to read completeness from (data, asked at each look), or null. */
  backfill: string | null;
}

const REMEMBERED = 8;
// Keyed by the schema's text and the file's kind; a schema seen before costs one statement (the text) instead of a
// PRAGMA per table. Most recent last.
const memo: Array<{ key: string; query: OwnsQuery }> = [];

function build(db: Database.Database, state: boolean): OwnsQuery {
  const cols = threadColumns(db);
  const layout = state ? schemaLayout(db) : null;
  const known = layout?.kind === 'known';
  const parts: string[] = [];
  for (const { table, column } of cols.owned) {
    const isThreadsId = known && table === layout.table && column === layout.id;
    // The state DB's `threads` row by its primary key, in either case (as the survey reads it); every other column as the
    // row look of a purge compares it.
    parts.push(`EXISTS (SELECT 1 FROM ${q(table)} WHERE ${q(column)} ${isThreadsId ? 'IN (@id, @upper)' : '= @id'})`);
  }
  for (const { table, column } of cols.rolloutPaths) parts.push(`EXISTS (SELECT 1 FROM ${q(table)} WHERE ${q(column)} LIKE @pattern)`);
  const source = known ? tableColumns(db, layout.table).find((c) => c.toLowerCase() === 'source') : undefined;
  return {
    rows: parts.length === 0 ? null : `SELECT ${parts.join(' OR ')}`,
    subagents: known && source !== undefined ? { table: layout.table, id: layout.id, source } : null,
    known,
    backfill: known ? layout.backfill : null,
  };
}

/**
 * The ownership look of a database (read from its schema once per distinct schema).
 * @public
 */
export function ownsQuery(db: Database.Database, state: boolean): OwnsQuery {
  const key = `${state ? 's' : 'o'}${schemaText(db)}`;
  const seen = memo.find((m) => m.key === key);
  if (seen !== undefined) return seen.query;
  const query = build(db, state);
  if (memo.length >= REMEMBERED) memo.shift();
  memo.push({ key, query });
  return query;
}

/**
 * Whether the database holds a row the canonical id owns (see {@link OwnsQuery}), or a sub-agent thread whose own
 * `source` names the id as its parent; and for a state DB, whether it can be trusted to list every thread (the known
 * layout, backfill complete). Throws what SQLite throws (the caller then looks everywhere).
 * @public
 */
export function ownsRows(db: Database.Database, state: boolean, id: string): { found: boolean; trusted: boolean } {
  const query = ownsQuery(db, state);
  let trusted = query.known;
  if (trusted && query.backfill !== null) {
    const statuses = db.prepare(`SELECT status FROM ${q(query.backfill)}`).pluck().all();
    trusted = statuses.length > 0 && statuses.every((s) => s === 'complete');
  }
  if (query.rows !== null && db.prepare(query.rows).pluck().get({ id, upper: id.toUpperCase(), pattern: rolloutPathPattern(id) }) === 1) return { found: true, trusted };
  const sub = query.subagents;
  if (sub === null) return { found: false, trusted };
  // Codex writes a sub-agent's source as serde's compact JSON `{"subagent":…}`: a range of the index on source (Codex
  // keeps one) holds exactly those rows, so this reads the sub-agent threads only, never every thread.
  const sql = `SELECT ${q(sub.id)} AS id, ${q(sub.source)} AS src FROM ${q(sub.table)} WHERE ${q(sub.source)} >= '{"subagent"' AND ${q(sub.source)} < '{"subagent#' AND instr(lower(${q(sub.source)}), ?) > 0`;
  const kids = db.prepare(sql).all(id) as Array<{ id: unknown; src: unknown }>;
  return { found: kids.some((k) => subagentParent(k.src, null, typeof k.id === 'string' ? k.id : null) === id), trusted };
}
