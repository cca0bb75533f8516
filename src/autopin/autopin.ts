import { join } from 'node:path';
import { withLock } from '../atomic/lock.js';
import { MamError } from '../errors.js';
import { isValidJobId } from '../jobs/job-id.js';
import { jobPaths } from '../jobs/job-paths.js';
import { readJobRecord } from '../jobs/job-record-reader.js';
import type { JobRecord } from '../jobs/job-record.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { agentsBesideRegistry } from '../registry/agents-beside-registry.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { AutoPinArgumentError } from './autopin-argument-error.js';
import type { AutoPinResult } from './autopin-result.js';
import type { PinJobRowDeps } from './pin-job-row.js';
import { checkOptions, checkPathArg, commonOptionShape, msSchema, objectSchema, optionsSchema, workspaceExists } from '../validation/workspace-args.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import { absolutePathSchema } from '../validation/common-schemas.js';

const autoPinOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), registry: objectSchema(z), jobsDir: absolutePathSchema(z), lockTimeoutMs: msSchema(z) }));

/** Checks {@link AutoPin}'s options: home and jobsDir absolute, env strings, the lock timeout finite and not negative. */
export function checkAutoPinOptions<Extra extends string = never>(opts: AutoPinOptions<Extra> | undefined): AutoPinOptions<Extra> {
  return checkOptions(autoPinOptions, 'opts', opts);
}

/**
 * Options of {@link AutoPin}.
 * @public
 */
export interface AutoPinOptions<Extra extends string = never> {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment (CLAUDE_CONFIG_DIR, CODEX_HOME …); default: each adapter reads the ProcessPort's. */
  env?: Record<string, string | undefined>;
  /** The workspace's registry, when the caller already has one (default a new one on the same ports, knowing `agents`). */
  registry?: SessionRegistry;
  /**
   * Agents defined outside the package (`defineAgent`) a row may name, after the built-ins: the id of such a row is
   * captured from its store and pinned under its definition's `ownKey`. Default: the `agents` of `registry` when given,
   * else none. A `registry` given must know each of them.
   */
  agents?: readonly AgentDefinition<Extra>[];
  /** The job registry dir (default `<workspace>/.mam/jobs`). */
  jobsDir?: string;
  /** Give up waiting for a job's AutoPin lock after this long (default 120 000 ms: another caller may be capturing). */
  lockTimeoutMs?: number;
}

const LOCAL_JOB = /^herdr:(.+)$/s;

function checkArguments(jobId: unknown, token: unknown, attempt: unknown): void {
  if (!isValidJobId(jobId)) throw new AutoPinArgumentError(`not a valid job id: ${JSON.stringify(jobId)}`, { jobId });
  if (typeof token !== 'string' || token === '' || token.length > 1024 || /[\u0000-\u001f\u007f]/.test(token)) {
    throw new AutoPinArgumentError('the dispatch token must be a non-empty string of at most 1024 characters without control characters', { token });
  }
  if (typeof attempt !== 'number' || !Number.isSafeInteger(attempt) || attempt < 1) throw new AutoPinArgumentError(`the attempt must be a positive integer, got ${JSON.stringify(attempt)}`, { attempt });
}

/**
 * Pins a session's conversation id once its job is verified completed: for a local herdr job
 * (`agent_session: herdr:<name>`), captures the row's live id (herdr's report first, always verified on disk) and pins
 * it with `session_id_source: discovered` and `session_id_verified: true`. Each `(job, dispatch token, attempt)` is
 * handled once however many processes race (a job-scoped lock and a marker in the job's dir); a failure leaves its
 * reason on the row; the job record is only ever read.
 * @example
 * ```ts
 * const r = await new AutoPin('/repo').handleCompleted(jobId, { dispatchToken, attempt: 1 });
 * if (r.kind === 'failed') report(r.reason); // the job stays completed
 * ```
 *
 * An agent defined outside the package is passed in `agents` (see {@link AutoPinOptions.agents}).
 * @public
 */
export class AutoPin<Extra extends string = never> {
  readonly #ports: Ports;
  readonly #deps: PinJobRowDeps;
  readonly #jobsDir: string;
  readonly #lockTimeoutMs: number;
  readonly #exists: () => Promise<void>;

  /**
   * Binds AutoPin to a workspace (an absolute path, checked to be an existing directory at the first call); throws an
   * {@link InvalidArgumentError} naming the parameter for a bad workspace or option, and an `AutoPinArgumentError`
   * when no home directory is given or known.
   */
  constructor(workspace: string, options: AutoPinOptions<Extra> = {}) {
    checkPathArg('workspace', workspace);
    const opts = checkAutoPinOptions(options);
    this.#ports = resolvePorts(opts.ports);
    this.#exists = workspaceExists(this.#ports.fs, 'workspace', workspace);
    const home = opts.home ?? this.#ports.proc.env()['HOME'];
    if (home === undefined || home === '') throw new AutoPinArgumentError('no home directory: pass `home`, or set HOME in the environment the ProcessPort reports');
    this.#jobsDir = opts.jobsDir ?? join(workspace, '.mam', 'jobs');
    this.#lockTimeoutMs = opts.lockTimeoutMs ?? 120_000;
    const agents = agentsBesideRegistry<Extra>(options.agents, options.registry);
    const registry = opts.registry ?? new SessionRegistry(workspace, { ports: this.#ports, agents });
    this.#deps = { ports: this.#ports, home, env: opts.env, registry, ...(agents.length === 0 ? {} : { agents }) };
  }

  /**
   * Handles one completed job; see {@link AutoPinResult}. Throws an `AutoPinArgumentError` for an invalid job id,
   * token or attempt (nothing is touched), and a lock timeout when another caller holds the job's AutoPin lock too long.
   * @example
   * ```ts
   * const r = await autopin.handleCompleted('job-20261130T014900Z-1a2b3c4d', { dispatchToken: token, attempt: 1 });
   * ```
   */
  async handleCompleted(jobId: string, opts: { dispatchToken: string; attempt: number }): Promise<AutoPinResult<Extra>> {
    checkArguments(jobId, opts?.dispatchToken, opts?.attempt);
    const { dispatchToken, attempt } = opts;
    await this.#exists();
    const { fs, clock, proc } = this.#ports;
    let record: JobRecord;
    try {
      record = await readJobRecord(fs, this.#jobsDir, jobId);
    } catch (err) {
      if (!(err instanceof MamError)) throw err;
      return { kind: 'failed', jobId, name: null, reason: err.message, candidates: [], noted: false };
    }
    const local = LOCAL_JOB.exec(record.agent_session ?? '');
    if (local === null) return { kind: 'skipped', jobId, name: null, reason: `not a local herdr job (agent_session ${JSON.stringify(record.agent_session)})` };
    const name = local[1] as string;
    if (record.status !== 'completed') return { kind: 'skipped', jobId, name, reason: `the job is ${record.status}, not completed` };
    if (record.attempt_id !== attempt) return { kind: 'skipped', jobId, name, reason: `stale attempt: the job is at attempt ${record.attempt_id}, not ${attempt}` };
    // The pin and its marker are loaded here, for a completed job of this attempt: importing @mam/core does not load them.
    const [{ autoPinPaths, readAutoPinMarker, writeAutoPinMarker }, { pinJobRow }] = await Promise.all([import('./autopin-marker.js'), import('./pin-job-row.js')]);
    const jobDir = jobPaths.workDir(this.#jobsDir, jobId);
    await fs.mkdir(jobDir, { recursive: true });
    const tokenSha256 = autoPinPaths.tokenSha256(dispatchToken);
    const markerPath = autoPinPaths.marker(jobDir, attempt, tokenSha256);
    return withLock(autoPinPaths.lock(jobDir), { clock, timeoutMs: this.#lockTimeoutMs }, async (): Promise<AutoPinResult<Extra>> => {
      const seen = await readAutoPinMarker(fs, markerPath);
      // The marker of this job's dir: an AutoPin of this workspace wrote it, knowing the agents its rows name.
      if (seen.kind === 'marker') return { kind: 'skipped', jobId, name, reason: 'already handled', previous: seen.marker.result as AutoPinResult<Extra> };
      if (seen.kind === 'unreadable') return { kind: 'skipped', jobId, name, reason: `already handled (its marker is unreadable: ${seen.problem})` };
      const result = await pinJobRow(this.#deps, jobId, name);
      const marker = { version: 1 as const, job_id: jobId, attempt, token_sha256: tokenSha256, handled_at: new Date(clock.now()).toISOString(), pid: proc.selfPid(), result };
      await writeAutoPinMarker(fs, markerPath, marker);
      // pinJobRow names only agents of this registry and `agents`: the built-ins and Extra.
      return result as AutoPinResult<Extra>;
    });
  }
}
