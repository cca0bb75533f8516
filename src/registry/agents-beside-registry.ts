// The outside agents of a service bound to a workspace's registry (SessionLifecycle, Orchestrators, AutoPin, reconcile):
// its `agents` option, else the registry's. The registry reads the rows, so it must know every agent the service is
// given: a row of one it does not know would be refused at load.
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { registryAgents } from './registry-agents.js';

/**
 * `agents` (checked as `opts.agents`: definitions, no built-in name or own key, none twice), else the `agents` of
 * `registry`, else none. A `registry` given must know each of them (the same definition, or one of the same name and own
 * key); otherwise an InvalidArgumentError naming `opts.registry`.
 */
export function agentsBesideRegistry<Extra extends string = never>(
  agents: readonly AgentDefinition<Extra>[] | undefined,
  registry: { readonly agents?: readonly AgentDefinition<string>[] } | undefined,
): readonly AgentDefinition<Extra>[] {
  const known = registry?.agents ?? [];
  const defs = (agents ?? known) as readonly AgentDefinition<Extra>[];
  registryAgents(defs, 'opts.agents');
  if (registry === undefined) return defs;
  const unknown = defs.find((d) => !known.some((r) => r === d || (r.name === d.name && r.ownKey === d.ownKey)));
  if (unknown !== undefined) throw new InvalidArgumentError('opts.registry', `does not know agent ${JSON.stringify(unknown.name)}: pass the same agents to the registry`);
  return defs;
}
