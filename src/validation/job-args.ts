import { basename, dirname } from 'node:path';
import { isPortError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { FileSystemPort } from '../ports/fs.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { JobEngineOptions, RegisterJobOptions } from '../jobs/job-engine.js';
import { absolutePathSchema } from './common-schemas.js';
import { checkOptions, msSchema, objectSchema, optionsSchema, workspaceExists } from './workspace-args.js';

const engineOptions = lazySchema((z: Zod) => optionsSchema(z, { ports: objectSchema(z), logsDir: absolutePathSchema(z), lockTimeoutMs: msSchema(z), createRegistryDir: z.boolean({ error: 'must be a boolean' }) }));
const registerOptions = lazySchema((z: Zod) => optionsSchema(z, { agentSession: z.string({ error: 'must be a string or null' }).nullable(), jobId: z.string({ error: 'must be a string' }) }));
const sourceOptions = lazySchema((z: Zod) => optionsSchema(z, { source: z.string({ error: 'must be a string' }) }));

/** Checks {@link JobEngine}'s options: logsDir absolute, the lock timeout finite and not negative. */
export function checkJobEngineOptions(opts: JobEngineOptions | undefined): JobEngineOptions {
  return checkOptions(engineOptions, 'opts', opts);
}

/** Checks registerJob's arguments: the prompt a string, the options' types. */
export function checkRegisterJob(prompt: unknown, opts: RegisterJobOptions | undefined): RegisterJobOptions {
  if (typeof prompt !== 'string') throw new InvalidArgumentError('prompt', 'must be a string');
  return checkOptions(registerOptions, 'opts', opts);
}

/** Checks an options argument that may carry only `source` (a string). */
export function checkSourceOptions(opts: { source?: string } | undefined): { source?: string } {
  return checkOptions(sourceOptions, 'opts', opts);
}

/**
 * A once-per-engine check (memoised on success) that the job registry dir exists or may be made: it exists, or the
 * workspace it belongs to does (`<workspace>/.mam/jobs`: the workspace; any other dir: its parent) — so a typo never
 * becomes a tree made with mkdir -p. `create` (the caller's `createRegistryDir`) lets anything through.
 */
export function registryDirExists(fs: FileSystemPort, dir: string, create: boolean): () => Promise<void> {
  const parent = dirname(dir);
  const anchor = basename(parent) === '.mam' ? dirname(parent) : parent;
  const anchorExists = workspaceExists(fs, 'registryDir', anchor, { optIn: 'createRegistryDir' });
  let ok: Promise<void> | null = null;
  const check = async (): Promise<void> => {
    if (create) return;
    try {
      if ((await fs.stat(dir)).kind !== 'dir') throw new InvalidArgumentError('registryDir', `${dir} is not a directory`);
      return;
    } catch (err) {
      if (!isPortError(err, 'NotFound')) throw err;
    }
    await anchorExists();
  };
  return () => {
    ok ??= check().catch((err: unknown) => {
      ok = null;
      throw err;
    });
    return ok;
  };
}
