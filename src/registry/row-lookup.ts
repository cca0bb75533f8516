import type { RegistryState } from './registry-state.js';
import type { SessionRow, SessionStatus } from './session-row.js';

/**
 * The row with this name, or undefined.
 * @public
 */
export function rowByName(state: RegistryState, name: string): SessionRow | undefined {
  return state.herdr_sessions.find((r) => r.name === name);
}

/**
 * The rows with this status, in registry order.
 * @public
 */
export function rowsByStatus(state: RegistryState, status: SessionStatus): SessionRow[] {
  return state.herdr_sessions.filter((r) => r.status === status);
}
