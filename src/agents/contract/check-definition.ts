import { InvalidArgumentError } from '../../invalid-argument-error.js';

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const FIELD = /^[a-z][a-z0-9_]{0,63}$/;
const VAR = /^[A-Za-z_][A-Za-z0-9_]*$/;

const fail = (field: string, why: string): never => {
  throw new InvalidArgumentError(`definition.${field}`, why);
};
const isFn = (v: unknown): boolean => typeof v === 'function';

/**
 * Throws `InvalidArgumentError` naming the first field of `d` that cannot work; the checks `defineAgent` and
 * `createAdapter` run on a definition (cheap: no schema library is loaded for them).
 */
export function checkDefinition(d: unknown): void {
  if (typeof d !== 'object' || d === null) fail('', 'must be an agent definition (an object from defineAgent)');
  const def = d as Record<string, unknown>;
  if (typeof def['name'] !== 'string' || !NAME.test(def['name'])) fail('name', 'must be a lower-case word ([a-z][a-z0-9-]*, at most 32 characters)');
  if (typeof def['ownKey'] !== 'string' || !FIELD.test(def['ownKey'])) fail('ownKey', 'must be a snake_case registry field name');
  if (def['idLifecycle'] !== 'pre_assigned' && def['idLifecycle'] !== 'post_discovered') fail('idLifecycle', 'must be "pre_assigned" or "post_discovered"');
  const ids = def['ids'] as Record<string, unknown> | undefined;
  if (typeof ids !== 'object' || ids === null || !isFn(ids['canonical']) || typeof ids['shape'] !== 'string') fail('ids', 'must be { shape, canonical(id) }');
  const vars = def['sessionEnvVars'];
  if (!Array.isArray(vars) || !vars.every((v) => typeof v === 'string' && VAR.test(v))) fail('sessionEnvVars', 'must be a list of environment variable names');
  const launch = def['launch'] as Record<string, unknown> | undefined;
  if (typeof launch !== 'object' || launch === null || !isFn(launch['args']) || !isFn(launch['resumeArgs'])) fail('launch', 'must be { args(id), resumeArgs(id) }');
  if (def['idLifecycle'] === 'pre_assigned' && !isFn(launch?.['mintId'])) fail('launch.mintId', 'must be a function: a pre-assigned agent needs the library to pick its ids');
  if (!isFn(def['store'])) fail('store', 'must be a function (ports) => store');
  const reads = def['reads'] as Record<string, unknown> | undefined;
  if (reads !== undefined && (typeof reads !== 'object' || reads === null || !['files', 'files-then-spawn', 'any'].includes(String(reads['kind'])))) {
    fail('reads', 'must be { kind: "files" | "files-then-spawn" | "any", provesHome? }');
  }
}
