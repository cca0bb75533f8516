import { requireAgentName, type AgentName } from '../ids/agent-names.js';
import type { UnknownAgentError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { Ports } from '../ports/index.js';
import { parseArgument } from './common-schemas.js';

// Built on first use (zod loads then, not when the package is imported).
const optsSchema = lazySchema((z: Zod) => {
  const port = z.custom<object>((v) => typeof v === 'object' && v !== null, { error: 'must be a port object' }).optional();
  return z.looseObject(
    { ports: z.looseObject({ fs: port, proc: port, herdr: port, clock: port }, { error: 'must be an object of ports ({ fs, proc, herdr, clock })' }).optional() },
    { error: 'must be an object ({ ports })' },
  );
});

/**
 * Checks `getAdapter`'s arguments: `name` a string ({@link InvalidArgumentError} otherwise) that is a canonical agent
 * name ({@link UnknownAgentError} otherwise), `opts` an object whose `ports`, when given, is an object of port objects.
 */
export function checkGetAdapterArgs(name: unknown, opts: unknown): { name: AgentName; ports: Partial<Ports> | undefined } {
  if (typeof name !== 'string') throw new InvalidArgumentError('name', `must be a string (an agent name), got ${name === null ? 'null' : typeof name}`);
  const agent = requireAgentName(name);
  if (opts === undefined) return { name: agent, ports: undefined };
  parseArgument(optsSchema, 'opts', opts);
  return { name: agent, ports: (opts as { ports?: Partial<Ports> }).ports };
}
