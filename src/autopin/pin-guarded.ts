import { pinUnclaimed } from '../registry/pin-unclaimed.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';
import { AUTOPIN_ERROR_FIELDS } from './note-pin-failure.js';
import { sameInstance } from './same-instance.js';

/**
 * What a guarded pin did: `pinned` (or the row already recorded that very id), or why it refused — the row is gone or is
 * another session instance now, it records another id, or another row (or an orchestrator) records this one.
 * @public
 */
export type PinGuardOutcome = 'pinned' | 'row-gone' | 'row-changed' | 'already-recorded' | 'claimed-by-other-row';

/**
 * Pins `id` onto the row `seen` names in one locked registry update — own key, `session_id_source: discovered`,
 * `session_id_verified: true`, a previous AutoPin failure note cleared — only while the row is the same session instance,
 * records no other id, and no other row or orchestrator records this one (checked again under the lock). `agent` is a
 * built-in agent or one of the registry's `agents` (its id goes under its own key; every agent's own key is claimed).
 * @example
 * ```ts
 * if ((await pinGuarded(registry, row, 'agy', id)) !== 'pinned') leaveReason();
 * ```
 * @public
 */
export async function pinGuarded(registry: SessionRegistry, seen: SessionRow, agent: string, id: string): Promise<PinGuardOutcome> {
  return registry.update((draft): PinGuardOutcome => {
    const row = sameInstance(draft, seen);
    if (typeof row === 'string') return row;
    const outcome = pinUnclaimed<string>(draft, row, agent, id, { agents: registry.agents });
    if (outcome === 'pinned') for (const field of AUTOPIN_ERROR_FIELDS) delete row[field];
    return outcome;
  });
}
