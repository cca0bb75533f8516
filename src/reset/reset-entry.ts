import { recordedId } from '../registry/row-agent.js';
import type { RegistryAgentsOption } from '../registry/registry-agents.js';
import type { RegistryState } from '../registry/registry-state.js';
import type { SessionRow } from '../registry/session-row.js';
import type { ResetTarget } from './reset-target.js';

/**
 * Where a spec entry stands against the registry now (D6): `purged` (no row), `pending` (the old instance, or the old
 * conversation resumed), `created` (a new instance with no id yet), `done` (a new instance with a new id).
 * @public
 */
export type ResetEntryState = 'purged' | 'pending' | 'created' | 'done';

/**
 * One spec entry with its state, the row it was judged against (if any) and the id that row records.
 * @public
 */
export interface ResetEntry {
  /** The spec entry. */
  target: ResetTarget;
  /** Where it stands now. */
  state: ResetEntryState;
  /** The registry row of that name, or null when there is none (`purged`). */
  row: SessionRow | null;
  /** The conversation id that row records, or null. */
  rowId: string | null;
  /** True when the row is a new instance (its created-at differs from the spec's). */
  newInstance: boolean;
}

/**
 * Classifies one spec entry against the current rows (D6 #1–#5).
 * @public
 */
export function classifyEntry(target: ResetTarget, state: RegistryState, opts: RegistryAgentsOption<string> = {}): ResetEntry {
  const row = state.herdr_sessions.find((r) => r.name === target.name) ?? null;
  if (row === null) return { target, state: 'purged', row: null, rowId: null, newInstance: false };
  const rowId = recordedId(row, opts);
  const created = typeof row.herdr_session_created_at === 'string' ? row.herdr_session_created_at : null;
  const newInstance = created !== target.oldCreatedAt;
  let s: ResetEntryState;
  if (!newInstance) s = 'pending';
  else if (rowId === null) s = 'created';
  else s = rowId === target.oldId ? 'pending' : 'done';
  return { target, state: s, row, rowId, newInstance };
}
