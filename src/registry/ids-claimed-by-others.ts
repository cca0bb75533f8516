import { agentsOf, type RegistryAgentsOption } from './registry-agents.js';
import type { RegistryState } from './registry-state.js';

/**
 * Options of {@link idsClaimedByOthers}.
 * @public
 */
export interface IdsClaimedOptions extends RegistryAgentsOption<string> {
  /** Also count the orchestrator ids (default true: an orchestrator's conversation is never a row's). */
  includeOrchestrators?: boolean;
}

/**
 * The conversation ids recorded by every row except `rowName` (any agent's own key a row carries, not only its own
 * agent's, and with `opts.agents` every outside agent's), plus the orchestrator ids unless excluded; deduplicated, in
 * registry order.
 * @public
 */
export function idsClaimedByOthers(state: RegistryState, rowName: string, opts: IdsClaimedOptions = {}): string[] {
  const ids = new Set<string>();
  const keys = agentsOf(opts).ownKeys;
  for (const row of state.herdr_sessions) {
    if (row.name === rowName) continue;
    for (const key of keys) {
      const id: unknown = row[key];
      if (typeof id === 'string' && id !== '') ids.add(id);
    }
  }
  if (opts.includeOrchestrators !== false) for (const id of state.orchestrator_uuids) ids.add(id);
  return [...ids];
}
