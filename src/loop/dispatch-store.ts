import { join } from 'node:path';
import { writeFileAtomic } from '../atomic/atomic-write.js';
import { withLock } from '../atomic/lock.js';
import { readJsonFile } from '../atomic/read-json-file.js';
import { isPortError } from '../errors.js';
import { requireJobId } from '../jobs/job-id.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import type { DispatchContext } from './dispatch-context.js';
import { DispatchNotFoundError } from './dispatch-not-found-error.js';
import { DispatchStoreError } from './dispatch-store-error.js';
import type { LoggedShadowDecision, ShadowEntry } from './shadow-entry.js';
import { checkOptions, checkPathArg, msSchema, objectSchema, optionsSchema, workspaceExists } from '../validation/workspace-args.js';
import { lazySchema, type Zod } from '../lazy-zod.js';

const storeOptions = lazySchema((z: Zod) => optionsSchema(z, { ports: objectSchema(z), lockTimeoutMs: msSchema(z) }));

/** Checks {@link DispatchStore}'s options. */
export function checkDispatchStoreOptions(opts: DispatchStoreOptions | undefined): DispatchStoreOptions {
  return checkOptions(storeOptions, 'opts', opts);
}

/**
 * Options of {@link DispatchStore}.
 * @public
 */
export interface DispatchStoreOptions {
  /** Ports to use instead of the real ones; the store uses only `fs` and `clock` (defaults: Node's). */
  ports?: Partial<Ports>;
  /** Give up waiting for the store's lock after this long (default 10 000 ms). */
  lockTimeoutMs?: number;
}

function isContext(v: unknown): v is DispatchContext {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return typeof c['job_id'] === 'string' && Number.isSafeInteger(c['attempt_id']) && typeof c['agent_session_uuid'] === 'string'
    && typeof c['pane_process_generation'] === 'string' && typeof c['dispatch_ack'] === 'boolean' && typeof c['execution_anchor_observed'] === 'boolean';
}

/**
 * The loop's own store under `<workspace>/.mam/loop/`, outside the job registry: dispatch contexts (`dispatch/<job_id>.json`) and logged shadow decisions (`decisions/<job_id>.jsonl`).
 * @example
 * ```ts
 * const store = new DispatchStore('/w');
 * await store.recordDispatch('job-1', 1, uuid, 'w2X:p1:1234:2026-09-06T00:00:00Z'); // execution_anchor_observed: false
 * await store.markExecutionAnchor('job-1');
 * ```
 * @public
 */
export class DispatchStore {
  /** `<workspace>/.mam/loop`. */
  readonly dir: string;
  readonly #ports: Pick<Ports, 'fs' | 'clock'>;
  readonly #lockTimeoutMs: number;
  // Checked once, before the first write: `.mam/loop/` is never made with mkdir -p under a workspace that does not exist.
  readonly #exists: () => Promise<void>;

  /** A store under `<workspace>/.mam/loop/`; nothing is created until the first write. */
  constructor(workspace: string, options: DispatchStoreOptions = {}) {
    checkPathArg('workspace', workspace);
    const opts = checkDispatchStoreOptions(options);
    const { fs, clock } = resolvePorts(opts.ports);
    this.#ports = { fs, clock };
    this.dir = join(workspace, '.mam', 'loop');
    this.#lockTimeoutMs = opts.lockTimeoutMs ?? 10_000;
    this.#exists = workspaceExists(fs, 'workspace', workspace);
  }

  /** Records that `attempt` of the job was dispatched to that conversation and pane generation; a dispatch ack, not execution. */
  async recordDispatch(jobId: string, attempt: number, sessionUuid: string, paneGeneration: string): Promise<DispatchContext> {
    requireJobId(jobId);
    if (!Number.isSafeInteger(attempt)) throw new DispatchStoreError(`attempt must be an integer, got ${JSON.stringify(attempt)}`, { attempt });
    for (const [name, v] of [['sessionUuid', sessionUuid], ['paneGeneration', paneGeneration]] as const) {
      if (typeof v !== 'string' || v === '') throw new DispatchStoreError(`${name} must be a non-empty string`, { [name]: v });
    }
    const ctx: DispatchContext = {
      job_id: jobId, attempt_id: attempt, agent_session_uuid: sessionUuid, pane_process_generation: paneGeneration,
      dispatch_ack: true, execution_anchor_observed: false, dispatched_at: this.#isoNow(),
    };
    await this.#locked(() => this.#write(ctx));
    return ctx;
  }

  /** The job's dispatch context, or null when none was recorded. */
  async loadDispatch(jobId: string): Promise<DispatchContext | null> {
    const path = this.#contextPath(jobId);
    const read = await readJsonFile(this.#ports.fs, path, (cause) => new DispatchStoreError(`the dispatch context ${path} is not JSON: check it, then remove it by hand`, { path }, { cause }));
    if (read === null) return null;
    const body = read.body;
    if (!isContext(body) || body.job_id !== jobId) throw new DispatchStoreError(`the dispatch context ${path} lacks required fields: check it, then remove it by hand`, { path });
    return body;
  }

  /** Marks that execution of the recorded attempt was seen; throws {@link DispatchNotFoundError} when nothing was dispatched. */
  async markExecutionAnchor(jobId: string): Promise<DispatchContext> {
    return this.#locked(async () => {
      const ctx = await this.loadDispatch(jobId);
      if (ctx === null) throw new DispatchNotFoundError(jobId, this.#contextPath(jobId));
      const next: DispatchContext = { ...ctx, execution_anchor_observed: true, anchor_observed_at: this.#isoNow() };
      await this.#write(next);
      return next;
    });
  }

  /** Appends one shadow decision to the job's decision log and returns it as logged. */
  async logDecision(entry: ShadowEntry & { job_id: string }): Promise<LoggedShadowDecision> {
    const logged: LoggedShadowDecision = { ...entry, at: this.#isoNow() };
    const { fs } = this.#ports;
    const path = this.#decisionsPath(entry.job_id);
    await this.#exists();
    await fs.mkdir(join(this.dir, 'decisions'), { recursive: true });
    await fs.writeFile(path, `${JSON.stringify(logged)}\n`, { append: true });
    return logged;
  }

  /** The shadow decisions logged for the job, oldest first (a torn last line is skipped). */
  async readDecisions(jobId: string): Promise<LoggedShadowDecision[]> {
    let text: string;
    try {
      text = await this.#ports.fs.readText(this.#decisionsPath(jobId));
    } catch (err) {
      if (isPortError(err, 'NotFound')) return [];
      throw err;
    }
    const out: LoggedShadowDecision[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        out.push(JSON.parse(line) as LoggedShadowDecision);
      } catch {
        // Only a crash mid-append tears a line.
      }
    }
    return out;
  }

  #contextPath(jobId: string): string {
    return join(this.dir, 'dispatch', `${requireJobId(jobId)}.json`);
  }

  #decisionsPath(jobId: string): string {
    return join(this.dir, 'decisions', `${requireJobId(jobId)}.jsonl`);
  }

  async #write(ctx: DispatchContext): Promise<void> {
    await this.#ports.fs.mkdir(join(this.dir, 'dispatch'), { recursive: true });
    await writeFileAtomic(this.#ports.fs, this.#contextPath(ctx.job_id), `${JSON.stringify(ctx, null, 2)}\n`);
  }

  async #locked<T>(fn: () => Promise<T>): Promise<T> {
    await this.#exists();
    await this.#ports.fs.mkdir(this.dir, { recursive: true });
    return withLock(join(this.dir, '.dispatch.lock'), { clock: this.#ports.clock, timeoutMs: this.#lockTimeoutMs }, fn);
  }

  #isoNow(): string {
    return new Date(this.#ports.clock.now()).toISOString();
  }
}
