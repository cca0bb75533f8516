// Agents defined outside the package (`defineAgent`), passed in explicitly to `PurgeService`, `inspectStores` and the
// `mam` CLI: their check, and one adapter per (ports, definition). There is no global registry of them.
import { isPlausibleId, normalizeAgentId } from '../ids/agent-id.js';
import { AGENT_NAMES, type AgentName, isAgentName, OWN_KEYS, ownKey } from '../ids/agent-names.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { Ports } from '../ports/index.js';
import type { AgentDefinition } from './contract/agent-definition.js';
import { checkDefinition } from './contract/check-definition.js';
import { createAdapter } from './contract/create-adapter.js';
import type { AgentAdapter } from './types.js';

// One adapter per (ports, definition): its store is opened once for every read made on those ports.
const adapters = new WeakMap<Ports, WeakMap<AgentDefinition, AgentAdapter<string>>>();

/** The shared adapter of an outside definition on `ports` (made once per ports and definition). */
export function outsideAdapter<N extends string>(ports: Ports, definition: AgentDefinition<N>): AgentAdapter<N> {
  let byDef = adapters.get(ports);
  if (byDef === undefined) adapters.set(ports, (byDef = new WeakMap()));
  let a = byDef.get(definition);
  if (a === undefined) byDef.set(definition, (a = createAdapter(definition, ports)));
  return a as AgentAdapter<N>;
}

/**
 * Checks a list of outside definitions given as `param` (e.g. `opts.agents`): a list, each a definition (see
 * `defineAgent`), no name or own key of a built-in agent and no name or own key given twice; throws
 * `InvalidArgumentError` naming `param`.
 */
export function checkOutsideAgents<N extends string>(agents: unknown, param: string): readonly AgentDefinition<N>[] {
  if (agents === undefined) return [];
  if (!Array.isArray(agents)) throw new InvalidArgumentError(param, 'must be a list of agent definitions (from defineAgent)');
  const seen = new Set<string>();
  const keys = new Set<string>(OWN_KEYS);
  agents.forEach((d: unknown, i) => {
    try {
      checkDefinition(d);
    } catch (err) {
      const why = err instanceof InvalidArgumentError ? err.data.problem : String(err);
      const field = err instanceof InvalidArgumentError ? err.data.param.replace(/^definition\.?/, '') : '';
      throw new InvalidArgumentError(`${param}[${i}]${field === '' ? '' : `.${field}`}`, why);
    }
    const name = (d as AgentDefinition).name;
    if (isAgentName(name)) throw new InvalidArgumentError(param, `agent ${JSON.stringify(name)} is a built-in agent's name: an outside agent needs a name of its own`);
    if (seen.has(name)) throw new InvalidArgumentError(param, `agent ${JSON.stringify(name)} is given twice`);
    seen.add(name);
    const key = (d as AgentDefinition).ownKey;
    if (keys.has(key)) throw new InvalidArgumentError(param, `agent ${JSON.stringify(name)}: own key ${JSON.stringify(key)} is already another agent's`);
    keys.add(key);
  });
  return agents as readonly AgentDefinition<N>[];
}

/**
 * The agents a service knows: the built-ins, then the outside definitions in the order given, with each one's adapter
 * on a set of ports and the plausibility of an id (the built-ins' own rule; an outside agent's `ids.canonical`).
 */
export interface AgentCatalog<Extra extends string = never> {
  /** Every name, the built-ins first (`AGENT_NAMES` order), then the outside agents in the order given. */
  readonly names: readonly (AgentName | Extra)[];
  /** The outside definition of `name`, or undefined for a built-in (or unknown) one. */
  outside(name: string): AgentDefinition<Extra> | undefined;
  /** Is `id` plausible for `agent` (an implausible id reaches no path of it). */
  plausible(agent: string, id: string): boolean;
  /** The canonical spelling of `id` for `agent`, or null when it is not plausible (or `agent` is unknown). */
  canonical(agent: string, id: string): string | null;
  /** Is `name` one of {@link AgentCatalog.names}. */
  knows(name: unknown): name is AgentName | Extra;
  /** The registry row field of `name`'s own id (`claude_session_id_own`, an outside definition's `ownKey`), or undefined. */
  ownKey(name: string): string | undefined;
  /** Every own key, in the order of {@link AgentCatalog.names}: the one list of the row fields that record an agent's id. */
  readonly ownKeys: readonly string[];
}

/** The catalog of the built-ins and `definitions` (already checked by {@link checkOutsideAgents}). */
export function agentCatalog<Extra extends string = never>(definitions: readonly AgentDefinition<Extra>[]): AgentCatalog<Extra> {
  const byName = new Map<string, AgentDefinition<Extra>>(definitions.map((d) => [d.name, d]));
  const names: readonly (AgentName | Extra)[] = [...AGENT_NAMES, ...definitions.map((d) => d.name)];
  const canonical = (agent: string, id: string): string | null => {
    const def = byName.get(agent);
    if (def === undefined) return isAgentName(agent) ? normalizeAgentId(agent, id) : null;
    try {
      const c = def.ids.canonical(id);
      return typeof c === 'string' ? c : null;
    } catch {
      return null;
    }
  };
  return {
    names,
    outside: (name) => byName.get(name),
    plausible(agent, id) {
      if (!byName.has(agent)) return isAgentName(agent) && isPlausibleId(agent, id);
      return canonical(agent, id) !== null;
    },
    canonical,
    knows: (name): name is AgentName | Extra => typeof name === 'string' && (isAgentName(name) || byName.has(name)),
    ownKey: (name) => byName.get(name)?.ownKey ?? (isAgentName(name) ? ownKey(name) : undefined),
    ownKeys: [...OWN_KEYS, ...definitions.map((d) => d.ownKey)],
  };
}
