import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { pinUnclaimed } from '../registry/pin-unclaimed.js';
import type { SessionRegistry } from '../registry/session-registry.js';

/**
 * What pinning a captured id did: `pinned`, or why not — the row is gone or is another instance now (`row-changed`), it
 * already records another id, or another row (or an orchestrator) records this one.
 * @public
 */
export type PinOutcome = 'pinned' | 'row-changed' | 'already-recorded' | 'claimed-by-other-row';

/**
 * Pins `id` onto the row `name` (own key, `session_id_source: discovered`, `session_id_verified: true`) in one locked
 * update, only if the row is still the instance created at `createdAt` and no other row records the id.
 * @public
 */
export async function pinCapturedId(registry: SessionRegistry, agent: string, name: string, createdAt: string | null, id: string, agents?: readonly AgentDefinition<string>[]): Promise<PinOutcome> {
  return registry.update((draft): PinOutcome => {
    const row = draft.herdr_sessions.find((r) => r.name === name);
    if (row === undefined || (createdAt !== null && row.herdr_session_created_at !== createdAt)) return 'row-changed';
    return pinUnclaimed<string>(draft, row, agent, id, { agents });
  });
}
