import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import { lazySchema, type Zod } from '../lazy-zod.js';
import { isPortError } from '../errors.js';
import { AGENT_NAMES, type AgentName } from '../ids/agent-names.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { PurgeOptions } from '../purge/purge-plan.js';
import { UnknownAgentError } from '../errors.js';

// Built on first use (zod loads then, not when the package is imported).
const optionsSchema = lazySchema((z: Zod) => {
  const absolutePath = z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .refine((p) => !p.includes('\0'), { error: 'must not contain a NUL byte' })
    .refine((p) => isAbsolute(p), { error: 'must be an absolute path (a relative one would be resolved against the current directory)' });
  return z.object(
    {
      home: absolutePath,
      workspace: absolutePath.optional(),
      env: z.record(z.string(), z.union([z.string(), z.undefined()]), { error: 'must be an object of strings' }).optional(),
      dryRun: z.boolean({ error: 'must be a boolean' }).optional(),
    },
    { error: 'must be an object' },
  );
});

function fail(root: string, err: z.ZodError): never {
  const issue = err.issues[0];
  const param = [root, ...(issue?.path ?? []).map(String)].join('.');
  throw new InvalidArgumentError(param, issue?.message ?? 'invalid');
}

/**
 * Checks `agent` (an agent name or `auto`; a string that is neither throws {@link UnknownAgentError}) and `id` (a
 * non-empty string), throwing {@link InvalidArgumentError} otherwise.
 * @public
 */
export function checkPurgeTarget(agent: unknown, id: unknown): { agent: AgentName | 'auto'; id: string } {
  if (typeof agent !== 'string') throw new InvalidArgumentError('agent', 'must be a string: an agent name or "auto"');
  if (agent !== 'auto' && !(AGENT_NAMES as readonly string[]).includes(agent)) throw new UnknownAgentError(agent);
  if (typeof id !== 'string') throw new InvalidArgumentError('id', 'must be a string');
  if (id === '') throw new InvalidArgumentError('id', 'must not be empty');
  return { agent: agent as AgentName | 'auto', id };
}

/**
 * Checks purge options: `home` an absolute path to an existing directory, `workspace` absolute when given, `env` an
 * object of strings; throws {@link InvalidArgumentError} naming the option otherwise.
 * @public
 */
export async function checkPurgeOptions(fs: FileSystemPort, opts: unknown): Promise<PurgeOptions & { dryRun?: boolean }> {
  const parsed = optionsSchema.safeParse(opts);
  if (!parsed.success) fail('opts', parsed.error);
  const home = parsed.data.home;
  try {
    if ((await fs.stat(home)).kind !== 'dir') throw new InvalidArgumentError('opts.home', `${home} is not a directory`);
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) throw new InvalidArgumentError('opts.home', `${home} does not exist`);
    throw err;
  }
  const { workspace, env, dryRun } = parsed.data;
  return { home, ...(workspace === undefined ? {} : { workspace }), ...(env === undefined ? {} : { env }), ...(dryRun === undefined ? {} : { dryRun }) };
}
