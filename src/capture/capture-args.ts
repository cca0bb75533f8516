import type { HomeDiscoveryContext } from '../agents/types.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { Ports } from '../ports/index.js';
import { parseArgument } from '../validation/common-schemas.js';
import { requireDiscoveryContext } from '../validation/discovery-context.js';
import { checkGetAdapterArgs } from '../validation/get-adapter-args.js';
import { agentCatalog, checkOutsideAgents } from '../agents/outside-agents.js';

// Built on first use (zod loads then, not when the package is imported). Fields it does not name are kept.
const inputSchema = lazySchema((z: Zod) =>
  z.looseObject(
    {
      ports: z.looseObject({ fs: z.custom<object>((v) => typeof v === 'object' && v !== null, { error: 'must be a FileSystemPort' }) }, { error: 'must be the ports ({ fs, proc, herdr, clock })' }),
      row: z.looseObject({}, { error: 'must be a session row (an object)' }),
      live: z.looseObject({}, { error: 'must be herdr\'s agent answer or null' }).nullable(),
      claimed: z.array(z.string({ error: 'must be a string' }), { error: 'must be a list of ids' }).readonly(),
    },
    { error: 'must be an object ({ ports, agent, row, live, ctx, claimed })' },
  ),
);

/**
 * Checks `captureSessionId`'s input (the agent a canonical name or one of `input.agents`, the row an object, `live` an object or null, `claimed`
 * a list of strings) and returns its context checked and normalised (`home`, one stat of it); throws
 * {@link InvalidArgumentError} (or `UnknownAgentError` for an unknown agent) otherwise.
 */
export async function checkCaptureInput(input: unknown): Promise<HomeDiscoveryContext> {
  parseArgument(inputSchema, 'input', input);
  const given = input as { agent: unknown; agents?: unknown; ports: Ports; ctx: unknown };
  const outside = agentCatalog(checkOutsideAgents(given.agents, 'input.agents'));
  if (typeof given.agent !== 'string' || outside.outside(given.agent) === undefined) checkGetAdapterArgs(given.agent, undefined);
  // The caller's own port object (zod's parse result is a copy, without the class's methods).
  return requireDiscoveryContext(given.ports.fs, given.ctx, 'input.ctx');
}
