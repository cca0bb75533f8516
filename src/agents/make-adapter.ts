import { assertNever } from '../assert-never.js';
import type { AgentName } from '../ids/agent-names.js';
import type { Ports } from '../ports/index.js';
import { BUILTIN_AGENTS, type BuiltinAgent } from './builtin.js';
import { createAdapter } from './contract/create-adapter.js';
import type { AgentAdapter } from './types.js';

const BY_NAME: ReadonlyMap<string, BuiltinAgent> = new Map(BUILTIN_AGENTS.map((d) => [d.name, d]));

/** A new adapter of `name` over complete `ports` (caches that outlive one instance are kept per ports, not here). */
export function makeAdapter(name: AgentName, ports: Ports): AgentAdapter<AgentName> {
  const definition = BY_NAME.get(name);
  if (definition === undefined) return assertNever(name as never, 'agent');
  return createAdapter<AgentName>(definition, ports);
}
