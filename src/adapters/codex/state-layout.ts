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

// Codex keeps the index from the rollouts in `backfill_state`; until it says complete, threads may lack older rollouts.
function backfillComplete(db: Database.Database, tables: readonly string[]): boolean {
  const t = find(tables, 'backfill_state');
  if (t === undefined || find(tableColumns(db, t), 'status') === undefined) return true;
  const statuses = db.prepare(`SELECT status FROM ${quoteIdent(t)}`).pluck().all();
  return statuses.length > 0 && statuses.every((s) => s === 'complete');
}

/**
 * Reads the layout of a state database from its schema.
 * @public
 */
export function stateLayout(db: Database.Database): StateLayout {
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
  return { kind: 'known', table, id, cwd, rollout, activity, complete: backfillComplete(db, tables) };
}
