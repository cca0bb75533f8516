import type { Ports } from '../../ports/index.js';
import type { AgentAdapter } from '../types.js';
import type { AgentDefinition } from './agent-definition.js';
import { createAdapter } from './create-adapter.js';

/**
 * The former adapter class of a built-in agent: `new XAdapter(ports)` now returns `createAdapter(definition, ports)`.
 * @public
 */
export interface LegacyAdapterClass<N extends string> {
  /** The adapter of the agent over `ports`. */
  new (ports: Ports): AgentAdapter<N>;
}

/** A constructor whose `new` gives `createAdapter(definition, ports)` (a class of the former API, kept for its callers). */
export function legacyAdapterClass<N extends string>(definition: AgentDefinition<N>): LegacyAdapterClass<N> {
  function Adapter(ports: Ports): AgentAdapter<N> {
    return createAdapter(definition, ports);
  }
  return Adapter as unknown as LegacyAdapterClass<N>;
}
