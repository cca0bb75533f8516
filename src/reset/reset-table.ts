import type { AgentName } from '../ids/agent-names.js';
import { displayName } from './display-name.js';
import type { ResetEntry } from './reset-entry.js';

/**
 * The STATE column of a result row.
 * @public
 */
export type ResetRowState =
  | 'done'
  | 'pending'
  | 'created; id not recorded yet'
  | 'skipped: purge refused'
  | 'skipped: no conversation id recorded'
  | 'failed at stop'
  | `failed at create (rc ${number})`;

/**
 * How a run left a target, when it did more than the entry state says (a skip or a failed create).
 * @public
 */
export type ResetRunNote = 'skipped: purge refused' | 'skipped: no conversation id recorded' | 'failed at stop' | `failed at create (rc ${number})`;

/**
 * One result-table row.
 * @public
 */
export interface ResetTableRow {
  /** The target's row name. */
  name: string;
  /** The target's agent. */
  agent: AgentName;
  /** The id the row recorded before the reset, or null. */
  oldId: string | null;
  /** The new instance's id, or null when there is no new instance or it records none yet. */
  newId: string | null;
  /** True when a new id is recorded. */
  recorded: boolean;
  /** null when there is no new id to compare. */
  differs: boolean | null;
  /** The STATE column. */
  state: ResetRowState;
}

/**
 * The table row of an entry, a run's note (skip or failure) taking the place of the entry's state.
 * @public
 */
export function tableRowOf(entry: ResetEntry, note?: ResetRunNote): ResetTableRow {
  const newId = entry.newInstance ? entry.rowId : null;
  const oldId = entry.target.oldId;
  const base = entry.state === 'done' ? 'done' : entry.state === 'created' ? 'created; id not recorded yet' : 'pending';
  return {
    name: entry.target.name,
    agent: entry.target.agent,
    oldId,
    newId,
    recorded: newId !== null,
    differs: newId === null ? null : oldId === null || newId !== oldId,
    state: note ?? base,
  };
}

/**
 * The exit code a table means, by precedence 1, then 4, then 5, then 0: a failed create, a skip or pending target, an id not
 * recorded yet, all done.
 * @public
 */
export function tableExitCode(rows: readonly ResetTableRow[]): 0 | 1 | 4 | 5 {
  if (rows.some((r) => r.state.startsWith('failed'))) return 1;
  if (rows.some((r) => r.state === 'pending' || r.state.startsWith('skipped'))) return 4;
  if (rows.some((r) => r.state === 'created; id not recorded yet')) return 5;
  return 0;
}

/**
 * Renders `NAME AGENT OLD_ID NEW_ID RECORDED NEW!=OLD STATE` with `-` for a missing value, columns padded.
 * @public
 */
export function renderResetTable(rows: readonly ResetTableRow[]): string {
  const cells = [['NAME', 'AGENT', 'OLD_ID', 'NEW_ID', 'RECORDED', 'NEW!=OLD', 'STATE']];
  for (const r of rows) {
    const differs = r.differs === null ? '-' : r.differs ? 'yes' : 'no';
    cells.push([displayName(r.name), displayName(r.agent), r.oldId === null ? '-' : displayName(r.oldId), r.newId === null ? '-' : displayName(r.newId), r.recorded ? 'yes' : 'no', differs, r.state]);
  }
  const widths = cells[0]?.map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length))) ?? [];
  return cells.map((row) => row.map((v, c) => (c === row.length - 1 ? v : v.padEnd(widths[c] ?? 0))).join('  ')).join('\n');
}
