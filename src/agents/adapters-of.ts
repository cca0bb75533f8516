import { type AgentName, requireAgentName } from '../ids/agent-names.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import type { AgentAdapter } from './types.js';
import { makeAdapter } from './make-adapter.js';

/**
 * The adapters of one `Ports`: one shared instance per agent for every call (adapters hold no memory of their own: what
 * a purge left is in its report).
 * @public
 */
export interface AdapterSet {
  /** The ports the adapters run on. */
  readonly ports: Ports;
  /** The shared adapter of an agent (throws `UnknownAgentError` for a name that is none). */
  get(name: AgentName): AgentAdapter<AgentName>;
  /**
   * A new adapter of an agent on the same ports.
   * @deprecated Adapters hold no memory of their own any more: use `get`.
   */
  fresh(name: AgentName): AgentAdapter<AgentName>;
}

// Keyed by the resolved ports object: every class resolves its ports once and passes that object down.
const sets = new WeakMap<Ports, AdapterSet>();

/**
 * The one adapter set of `ports` (missing ports resolved by {@link resolvePorts}; memoised for as long as the ports object lives), so lifecycle, reset, autopin, purge
 * and status share adapters and their caches instead of building fresh ones at every call site.
 * @example
 * ```ts
 * const ports = nodePorts();
 * const ok = await adaptersOf(ports).get('codex').verifyArtifact(id, { workspace, home: home });
 * ```
 * @public
 */
export function adaptersOf(given: Partial<Ports> = {}): AdapterSet {
  const ports = resolvePorts(given);
  const known = sets.get(ports);
  if (known !== undefined) return known;
  const shared = new Map<AgentName, AgentAdapter<AgentName>>();
  const set: AdapterSet = {
    ports,
    get(name) {
      const agent = requireAgentName(name);
      let a = shared.get(agent);
      if (a === undefined) {
        a = makeAdapter(agent, ports);
        shared.set(agent, a);
      }
      return a;
    },
    fresh(name) {
      return makeAdapter(requireAgentName(name), ports);
    },
  };
  sets.set(ports, set);
  return set;
}
