import type { RegistryState } from '../registry/registry-state.js';
import type { SessionRow } from '../registry/session-row.js';

/**
 * The row of a draft that is still the session instance `seen` was (same name, created_at and epoch), or why not.
 * @public
 */
export function sameInstance(draft: RegistryState, seen: SessionRow): SessionRow | 'row-gone' | 'row-changed' {
  const row = draft.herdr_sessions.find((r) => r.name === seen.name);
  if (row === undefined) return 'row-gone';
  const same = row.herdr_session_created_at === seen.herdr_session_created_at && row.herdr_session_epoch === seen.herdr_session_epoch;
  return same ? row : 'row-changed';
}
