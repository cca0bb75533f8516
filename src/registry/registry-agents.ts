// The agents a registry knows: the built-ins, and the outside definitions passed in (`new SessionRegistry(w, { agents })`,
// `pinRow(…, { agents })`). One catalog answers which rows' agents exist and which row fields record their own ids.
import { type AgentCatalog, agentCatalog, checkOutsideAgents } from '../agents/outside-agents.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';

/**
 * The agents passed to a registry function: outside definitions made with `defineAgent`, known after the built-ins.
 * @public
 */
export interface RegistryAgentsOption<Extra extends string = never> {
  /**
   * Agents defined outside the package (`defineAgent`): a row may name one of them as its `agent` and record its id
   * under the definition's `ownKey`. None by default: a row naming any other agent is refused.
   */
  agents?: readonly AgentDefinition<Extra>[] | undefined;
}

// The fields a row has of its own (the schema's, and the pane id the lifecycle records): an outside agent's own key
// must be none of them.
const ROW_FIELDS: ReadonlySet<string> = new Set([
  'name', 'status', 'role', 'agent', 'herdr_session', 'herdr_server', 'herdr_workspace', 'herdr_session_created_at',
  'herdr_session_epoch', 'session_id_source', 'session_id_verified', 'pane', 'herdr_pane_id',
]);

/** The built-in agents only: what a registry knows when no outside agent is passed. */
export const BUILTIN_CATALOG: AgentCatalog = agentCatalog([]);

/** Does `agents` know an agent beyond the built-ins. */
export function hasOutside(agents: AgentCatalog<string>): boolean {
  return agents.ownKeys.length > BUILTIN_CATALOG.ownKeys.length;
}

/**
 * The catalog of `agents` given as `param` (checked by `checkOutsideAgents`; an own key may not be a row field of its
 * own, e.g. `status`); the built-ins only when `agents` is undefined.
 */
export function registryAgents<Extra extends string = never>(agents: unknown, param: string): AgentCatalog<Extra> {
  if (agents === undefined) return BUILTIN_CATALOG as AgentCatalog<Extra>;
  const defs = checkOutsideAgents<Extra>(agents, param);
  for (const d of defs) {
    if (ROW_FIELDS.has(d.ownKey)) throw new InvalidArgumentError(param, `agent ${JSON.stringify(d.name)}: own key ${JSON.stringify(d.ownKey)} is a field every registry row has`);
  }
  return defs.length === 0 ? (BUILTIN_CATALOG as AgentCatalog<Extra>) : agentCatalog(defs);
}

/** The catalog of a public function's `opts.agents` (see {@link RegistryAgentsOption}). */
export function agentsOf<Extra extends string>(opts: RegistryAgentsOption<Extra> | undefined): AgentCatalog<Extra> {
  return registryAgents<Extra>(opts?.agents, 'opts.agents');
}
