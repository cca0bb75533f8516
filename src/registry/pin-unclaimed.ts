import { normalizeAgentId } from '../ids/agent-id.js';
import type { AgentName } from '../ids/agent-names.js';
import { idsClaimedByOthers } from './ids-claimed-by-others.js';
import { pinRow } from './pin-row.js';
import type { RegistryState } from './registry-state.js';
import { recordedId } from './row-agent.js';
import type { SessionRow } from './session-row.js';

/**
 * Inside an update: pins `id` onto `row` (see {@link pinRow}) unless the row already records another id or another row
 * (or an orchestrator) records this one; a row that already records this very id is `pinned`.
 * @public
 */
export function pinUnclaimed(draft: RegistryState, row: SessionRow, agent: AgentName, id: string): 'pinned' | 'already-recorded' | 'claimed-by-other-row' {
  const canonical = normalizeAgentId(agent, id) ?? id;
  const has = recordedId(row);
  if (has !== null && (normalizeAgentId(agent, has) ?? has) !== canonical) return 'already-recorded';
  if (idsClaimedByOthers(draft, row.name).some((other) => (normalizeAgentId(agent, other) ?? other) === canonical)) return 'claimed-by-other-row';
  pinRow(draft, row.name, canonical);
  return 'pinned';
}
