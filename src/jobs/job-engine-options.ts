// The options of JobEngine and their checks (kept together so the engine imports its checks and nothing imports it back).
import { basename, dirname } from 'node:path';
import { isPortError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { FileSystemPort } from '../ports/fs.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { Ports } from '../ports/index.js';
import { absolutePathSchema } from '../validation/common-schemas.js';
import { checkOptions, msSchema, objectSchema, optionsSchema, workspaceExists } from '../validation/workspace-args.js';

/**
 * Options of {@link JobEngine}.
 * @public
 */
export interface JobEngineOptions {
  /** Ports to use instead of the real ones; the engine uses only `fs` and `clock` (defaults: Node's). */
  ports?: Partial<Ports>;
  /** Where the audit logs go; default `logs/jobs/` beside the registry dir. */
  logsDir?: string;
  /** Give up waiting for the registry lock after this long (default 10 000 ms). */
  lockTimeoutMs?: number;
  /**
   * Make the registry dir even when the workspace it belongs to does not exist (default: the first call throws an
   * `InvalidArgumentError` for a registry dir that is missing and whose workspace — the parent of `.mam`, else its own
   * parent — is missing too).
   */
  createRegistryDir?: boolean;
}

/**
 * Options of {@link JobEngine.registerJob}.
 * @public
 */
export interface RegisterJobOptions {
  /** The owning session, `herdr:<row name>` for a local herdr job; default null. */
  agentSession?: string | null;
  /** The id to use; default a new one from `newJobId`. */
  jobId?: string;
  /** Extra fields of the new record. */
  fields?: Record<string, unknown>;
}

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
