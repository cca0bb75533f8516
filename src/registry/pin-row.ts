import type { AgentCatalog } from '../agents/outside-agents.js';
import { InvalidIdError, UnknownAgentError } from '../errors.js';
import { agentsOf, type RegistryAgentsOption } from './registry-agents.js';
import { RegistryIdClaimedError } from './registry-id-claimed-error.js';
import { RegistryRowNotFoundError } from './registry-row-not-found-error.js';
import type { RegistryState } from './registry-state.js';
import { rowAgentIn } from './row-agent.js';
import type { SessionRow } from './session-row.js';

/**
 * Options of {@link pinRow}.
 * @public
 */
export interface PinRowOptions extends RegistryAgentsOption<string> {
  /** Pin the id even when another row (or an orchestrator) already records it (default false: refused). */
  allowShared?: boolean;
}

/**
 * Pins a conversation id onto a row of a draft (inside `update`): the row's own key gets the id (canonical spelling),
 * `session_id_source` becomes `discovered` and `session_id_verified` true; every other field stays. Throws a
 * RegistryRowNotFoundError, an UnknownAgentError (the row's agent cannot be told), an InvalidIdError, or a
 * RegistryIdClaimedError when another row or an orchestrator records the id (unless `opts.allowShared`); re-pinning the
 * row's own id is never refused. A row of an outside agent needs its definition in `opts.agents` (the registry's
 * `agents`); the ids recorded under outside own keys then count as claimed too.
 * @example
 * ```ts
 * await registry.update((draft) => pinRow(draft, 'reviewer-agy-01', id));
 * ```
 * @public
 */
export function pinRow(draft: RegistryState, name: string, id: string, opts: PinRowOptions = {}): SessionRow {
  const agents = agentsOf(opts);
  const row = draft.herdr_sessions.find((r) => r.name === name);
  if (row === undefined) throw new RegistryRowNotFoundError(name);
  const agent = rowAgentIn(row, agents);
  if (agent === undefined) throw new UnknownAgentError(String(row.agent ?? ''), agents.names);
  const canonical = agents.canonical(agent, id);
  if (canonical === null) throw new InvalidIdError(agent, String(id));
  if (opts.allowShared !== true) {
    const claimedBy = claimant(draft, name, agents, agent, canonical);
    if (claimedBy !== null) throw new RegistryIdClaimedError(name, agent, canonical, claimedBy);
  }
  row[agents.ownKey(agent) as string] = canonical;
  row.session_id_source = 'discovered';
  row.session_id_verified = true;
  return row;
}

// The first other row (any agent's own key it carries) or orchestrator recording `id`, compared in `agent`'s canonical
// spelling — the same set idsClaimedByOthers and pinUnclaimed count.
function claimant(draft: RegistryState, name: string, agents: AgentCatalog<string>, agent: string, id: string): string | null {
  const same = (other: unknown): boolean => typeof other === 'string' && other !== '' && (agents.canonical(agent, other) ?? other) === id;
  const keys = agents.ownKeys;
  for (const row of draft.herdr_sessions) if (row.name !== name && keys.some((k) => same(row[k]))) return row.name;
  return draft.orchestrator_uuids.some(same) ? 'orchestrator' : null;
}
