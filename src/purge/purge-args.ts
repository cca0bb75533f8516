import { lazySchema, type Zod } from '../lazy-zod.js';
import { absolutePathSchema, envSchema, parseArgument, requireDirectory, signalSchema } from '../validation/common-schemas.js';
import { AGENT_NAMES, type AgentName } from '../ids/agent-names.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { PurgeOptions } from './purge-plan.js';
import { UnknownAgentError } from '../errors.js';

// Built on first use (zod loads then, not when the package is imported).
const optionsSchema = lazySchema((z: Zod) => {
  const absolutePath = absolutePathSchema(z);
  return z.object(
    {
      home: absolutePath,
      workspace: absolutePath.optional(),
      env: envSchema(z).optional(),
      dryRun: z.boolean({ error: 'must be a boolean' }).optional(),
      signal: signalSchema(z).optional(),
    },
    { error: 'must be an object' },
  );
});

/**
 * Checks `agent` (one of `known` — default the built-in agents' names — or `auto`; a string that is neither throws
 * {@link UnknownAgentError}) and `id` (a non-empty string), throwing {@link InvalidArgumentError} otherwise.
 * @public
 */
export function checkPurgeTarget<A extends string = AgentName>(agent: unknown, id: unknown, known: readonly A[] = AGENT_NAMES as readonly string[] as readonly A[]): { agent: A | 'auto'; id: string } {
  if (typeof agent !== 'string') throw new InvalidArgumentError('agent', 'must be a string: an agent name or "auto"');
  if (agent !== 'auto' && !(known as readonly string[]).includes(agent)) throw new UnknownAgentError(agent, known);
  if (typeof id !== 'string') throw new InvalidArgumentError('id', 'must be a string');
  if (id === '') throw new InvalidArgumentError('id', 'must not be empty');
  return { agent: agent as A | 'auto', id };
}

/**
 * Checks purge options: `home` an absolute path to an existing directory, `workspace` absolute when given, `env` an
 * object of strings, `signal` an AbortSignal; throws {@link InvalidArgumentError} naming the option otherwise.
 * @public
 */
export async function checkPurgeOptions(fs: FileSystemPort, opts: unknown): Promise<PurgeOptions & { dryRun?: boolean }> {
  const data = parseArgument(optionsSchema, 'opts', opts);
  const home = data.home;
  await requireDirectory(fs, 'opts.home', home);
  const { workspace, env, dryRun, signal } = data;
  return { home, ...(workspace === undefined ? {} : { workspace }), ...(env === undefined ? {} : { env }), ...(dryRun === undefined ? {} : { dryRun }), ...(signal === undefined ? {} : { signal }) };
}
