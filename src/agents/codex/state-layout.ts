import type Database from 'better-sqlite3';
import { quoteIdent, tableColumns, tableNames } from '../../sqlite/schema.js';

/**
 * What a `state_<N>.sqlite` looks like: `known` when its `threads` table has `id`, `cwd` and `rollout_path` (the layout
 * discovery and purge rely on), with the real names of those columns, the activity column to order by, and whether
 * Codex's backfill from the rollouts has completed; `unknown` otherwise, with the reason.
 * @public
 */
export type StateLayout =
  | { kind: 'known'; table: string; id: string; cwd: string; rollout: string; activity: ActivityColumn | null; complete: boolean }
  | { kind: 'unknown'; reason: string };

/**
 * The column telling when a thread was last active, and its unit.
 * @public
 */
export interface ActivityColumn {
  column: string;
  unit: 'ms' | 's';
}

// Most precise first: updated_at_ms (0.171), updated_at (seconds, every known version), then creation times.
const ACTIVITY: ReadonlyArray<ActivityColumn> = [
  { column: 'updated_at_ms', unit: 'ms' },
  { column: 'updated_at', unit: 's' },
  { column: 'created_at_ms', unit: 'ms' },
  { column: 'created_at', unit: 's' },
];

function find(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted);
}

/**
 * What the schema alone says about a state database: its layout without the backfill status (that is data), and the
 * `backfill_state` table to ask for it (null when there is none with a `status` column).
 * @public
 */
export type SchemaLayout =
  | (Omit<Extract<StateLayout, { kind: 'known' }>, 'complete'> & { backfill: string | null })
  | Extract<StateLayout, { kind: 'unknown' }>;

/**
 * Reads the schema part of a state database's layout (a pure function of its schema).
 * @public
 */
export function schemaLayout(db: Database.Database): SchemaLayout {
  const tables = tableNames(db);
  const table = find(tables, 'threads');
  if (table === undefined) return { kind: 'unknown', reason: 'no threads table' };
  const cols = tableColumns(db, table);
  const [id, cwd, rollout] = [find(cols, 'id'), find(cols, 'cwd'), find(cols, 'rollout_path')];
  if (id === undefined || cwd === undefined || rollout === undefined) {
    const missing = ['id', 'cwd', 'rollout_path'].filter((c) => find(cols, c) === undefined);
    return { kind: 'unknown', reason: `threads lacks ${missing.join(', ')}` };
  }
  const act = ACTIVITY.find((a) => find(cols, a.column) !== undefined);
  const activity = act === undefined ? null : { column: find(cols, act.column) as string, unit: act.unit };
  const b = find(tables, 'backfill_state');
  const backfill = b !== undefined && find(tableColumns(db, b), 'status') !== undefined ? b : null;
  return { kind: 'known', table, id, cwd, rollout, activity, backfill };
}

/**
 * Completes a schema layout with the backfill status: Codex keeps the index from the rollouts in `backfill_state`, and
 * until every row of it says complete, `threads` may lack older rollouts.
 * @public
 */
export function withBackfill(db: Database.Database, s: SchemaLayout): StateLayout {
  if (s.kind !== 'known') return s;
  const { backfill, ...layout } = s;
  if (backfill === null) return { ...layout, complete: true };
  const statuses = db.prepare(`SELECT status FROM ${quoteIdent(backfill)}`).pluck().all();
  return { ...layout, complete: statuses.length > 0 && statuses.every((x) => x === 'complete') };
}

/**
 * Reads the layout of a state database from its schema (and its backfill status).
 * @public
 */
export function stateLayout(db: Database.Database): StateLayout {
  return withBackfill(db, schemaLayout(db));
}
