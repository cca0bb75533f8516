import type { AgentName } from '../ids/agent-names.js';
import { idsClaimedByOthers } from './ids-claimed-by-others.js';
import { pinRow } from './pin-row.js';
import { agentsOf, type RegistryAgentsOption } from './registry-agents.js';
import type { RegistryState } from './registry-state.js';
import { recordedIdIn } from './row-agent.js';
import type { SessionRow } from './session-row.js';

/**
 * Inside an update: pins `id` onto `row` (see {@link pinRow}) unless the row already records another id or another row
 * (or an orchestrator) records this one; a row that already records this very id is `pinned`. A row of an outside
 * agent needs its definition in `opts.agents` (the registry's `agents`).
 * @public
 */
export function pinUnclaimed<Extra extends string = never>(
  draft: RegistryState,
  row: SessionRow,
  agent: AgentName | Extra,
  id: string,
  opts: RegistryAgentsOption<Extra> = {},
): 'pinned' | 'already-recorded' | 'claimed-by-other-row' {
  const agents = agentsOf(opts);
  const canon = (x: string): string => agents.canonical(agent, x) ?? x;
  const canonical = canon(id);
  const has = recordedIdIn(row, agents);
  if (has !== null && canon(has) !== canonical) return 'already-recorded';
  const others = idsClaimedByOthers(draft, row.name, { agents: opts.agents });
  if (others.some((other) => canon(other) === canonical)) return 'claimed-by-other-row';
  pinRow(draft, row.name, canonical, { agents: opts.agents });
  return 'pinned';
}
