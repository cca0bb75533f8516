import type Database from 'better-sqlite3';
import { prepared } from '../../sqlite/prepared.js';
import { quoteIdent } from '../../sqlite/schema.js';
import type { StateLayout } from './state-layout.js';
import { subagentParent } from './rollout-head.js';

/**
 * One row of `threads`: the thread, its recorded cwd and rollout, and when it was last active (epoch ms, 0 when unknown).
 * @public
 */
export interface ThreadRow {
  id: string;
  cwd: string;
  rolloutPath: string;
  activityMs: number;
  /** Set when the row was read with its `source` column: whether the row itself says sub-agent thread (`{"subagent":…}`). */
  subagent?: boolean;
}

type Known = Extract<StateLayout, { kind: 'known' }>;

// The columns in the order toRow reads them.
function select(l: Known, source?: string | null): string {
  const act = l.activity === null ? 'NULL' : quoteIdent(l.activity.column);
  const src = source === undefined ? '' : `, ${source === null ? 'NULL' : quoteIdent(source)} AS src`;
  return `SELECT ${quoteIdent(l.id)} AS id, ${quoteIdent(l.cwd)} AS cwd, ${quoteIdent(l.rollout)} AS rollout, ${act} AS act${src} FROM ${quoteIdent(l.table)}`;
}

// A raw row (the columns in the order `select` names them: id, cwd, rollout, act, and src when asked for).
function toRow(l: Known, r: readonly unknown[]): ThreadRow | null {
  const [id, cwd, rollout, act] = r;
  if (typeof id !== 'string' || typeof cwd !== 'string' || typeof rollout !== 'string') return null;
  const n = Number(act);
  const ms = Number.isFinite(n) && n > 0 ? (l.activity?.unit === 's' ? n * 1000 : n) : 0;
  const row: ThreadRow = { id, cwd, rolloutPath: rollout, activityMs: ms };
  // The same test as subagentsAmong: a `source` naming a sub-agent, parsed.
  if (r.length > 4) {
    const src = r[4];
    row.subagent = typeof src === 'string' && src.includes('subagent') && subagentParent(src, null, id) !== null;
  }
  return row;
}

// The rows of a statement read raw (arrays: no object with named keys per row), as thread rows.
function rowsOf(l: Known, raw: readonly unknown[]): ThreadRow[] {
  const out: ThreadRow[] = [];
  for (const r of raw) {
    const row = toRow(l, r as unknown[]);
    if (row !== null) out.push(row);
  }
  return out;
}

/**
 * How the schema lets threads be found by cwd: `lead` null when an index starts with cwd, else the column an index
 * starts with before cwd (and whether it may be NULL); null when no index serves cwd.
 * @public
 */
export type CwdIndex = { lead: string | null; nullable: boolean } | null;

/**
 * Reads which index serves a query by cwd (a pure function of the schema). An index whose first column is cwd serves
 * `cwd IN (…)` directly; one led by another column X (Codex: archived, cwd, …) serves it once X's few distinct values
 * are known — found by index seeks in a recursive CTE, not by a scan of the table.
 * @public
 */
export function cwdIndexLead(db: Database.Database, l: Pick<Known, 'table' | 'cwd'>): CwdIndex {
  // The first two columns of every full (not partial) index of the table, in one statement.
  const cols = db
    .prepare('SELECT il.name AS ix, ii.seqno AS n, ii.name AS col FROM pragma_index_list(@t) AS il JOIN pragma_index_info(il.name) AS ii WHERE il.partial = 0 AND ii.seqno < 2')
    .all({ t: l.table }) as Array<{ ix: string; n: number; col: string | null }>;
  if (cols.some((c) => c.n === 0 && c.col === l.cwd)) return { lead: null, nullable: false };
  for (const second of cols.filter((c) => c.n === 1 && c.col === l.cwd)) {
    const lead = cols.find((c) => c.ix === second.ix && c.n === 0)?.col;
    if (typeof lead !== 'string') continue;
    const notNull = db.prepare('SELECT "notnull" FROM pragma_table_info(@t) WHERE name = @c').pluck().get({ t: l.table, c: lead });
    return { lead, nullable: notNull !== 1 };
  }
  return null;
}

function distinctValues(table: string, column: string): string {
  const t = quoteIdent(table);
  const c = quoteIdent(column);
  return `WITH RECURSIVE v(x) AS (SELECT min(${c}) FROM ${t} UNION ALL SELECT (SELECT min(${c}) FROM ${t} WHERE ${c} > v.x) FROM v WHERE v.x IS NOT NULL) SELECT x FROM v WHERE x IS NOT NULL`;
}

/**
 * The threads whose recorded cwd is one of `cwds`, through an index on cwd where the schema has one (`ix`: what
 * {@link cwdIndexLead} says, read from the schema when not given); with `source` (the `threads.source` column, null
 * when there is none) each row also says whether it is a sub-agent thread's, in the same statement.
 * @public
 */
export function threadsByCwd(db: Database.Database, l: Known, cwds: readonly string[], ix: CwdIndex = cwdIndexLead(db, l), source?: string | null): ThreadRow[] {
  const inCwds = `${quoteIdent(l.cwd)} IN (${cwds.map(() => '?').join(', ')})`;
  const base = select(l, source);
  let raw: unknown[];
  // Each statement prepared once per connection (a kept connection answers many calls).
  if (ix === null || ix.lead === null) raw = prepared(db, `${base} WHERE ${inCwds}`, 'raw').all(...cwds);
  else {
    const lead = quoteIdent(ix.lead);
    raw = prepared(db, `${base} WHERE ${lead} IN (${distinctValues(l.table, ix.lead)}) AND ${inCwds}`, 'raw').all(...cwds);
    if (ix.nullable) raw.push(...prepared(db, `${base} WHERE ${lead} IS NULL AND ${inCwds}`, 'raw').all(...cwds));
  }
  return rowsOf(l, raw);
}

/**
 * The `threads` rows of one id (ids compared case-insensitively: Codex writes them lower-case), by the primary key; with
 * `source` as for {@link threadsByCwd}.
 * @public
 */
export function threadsById(db: Database.Database, l: Known, id: string, source?: string | null): ThreadRow[] {
  return rowsOf(l, prepared(db, `${select(l, source)} WHERE ${quoteIdent(l.id)} IN (?, ?)`, 'raw').all(id, id.toUpperCase()));
}

/**
 * The `threads` rows of each id of a batch, in order (each compared as {@link threadsById} does), from one statement by
 * the primary key for the whole batch; an id without a row gets an empty list.
 * @public
 */
export function threadsByIds(db: Database.Database, l: Known, ids: readonly string[], source?: string | null): ThreadRow[][] {
  // One id: the plain lookup by the primary key (a batch statement costs more than the lookup itself).
  if (ids.length === 1) return [threadsById(db, l, ids[0] as string, source)];
  const keys = [...new Set(ids.flatMap((id) => [id, id.toUpperCase()]))];
  const raw = prepared(db, `${select(l, source)} WHERE ${quoteIdent(l.id)} IN (SELECT value FROM json_each(?))`, 'raw').all(JSON.stringify(keys));
  const byId = new Map<string, ThreadRow[]>();
  for (const row of rowsOf(l, raw)) byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
  return ids.map((id) => {
    const up = id.toUpperCase();
    return up === id ? (byId.get(id) ?? []) : [...(byId.get(id) ?? []), ...(byId.get(up) ?? [])];
  });
}
