import { withLock } from '../atomic/lock.js';
import { isPortError } from '../errors.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { checkJobFields } from './check-job-fields.js';
import { decideTransition, type TransitionGuards } from './decide-transition.js';
import type { JobAuditEvent } from './job-audit-event.js';
import { JobAuditLog } from './job-audit-log.js';
import { JobArgumentError } from './job-argument-error.js';
import { newJobId, requireJobId } from './job-id.js';
import { jobPaths } from './job-paths.js';
import { listJobIds, readJobRecord } from './job-record-reader.js';
import { writeJobRecord } from './job-record-writer.js';
import type { JobRecord } from './job-record.js';
import { isJobStatus, isTerminalStatus, type JobStatus } from './job-status.js';
import { isTransitionRequest, type TransitionRequest } from './transition-table.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkJobEngineOptions, checkRegisterJob, checkSourceOptions, type JobEngineOptions, type RegisterJobOptions, registryDirExists } from './job-engine-options.js';
import { checkNameArg, checkPathArg } from '../validation/workspace-args.js';

export type { JobEngineOptions, RegisterJobOptions } from './job-engine-options.js';

/**
 * Options of {@link JobEngine.transition}.
 * @public
 */
export interface TransitionOptions extends TransitionGuards {
  /** Fields merged into the record on commit (not `status`, `job_id`, the timestamps or the counters). */
  fields?: Record<string, unknown>;
  /** Who asked, for the audit log. */
  source?: string;
}

/**
 * The answer of {@link JobEngine.transition}: committed or not, the statuses, why, and the record's `transition_seq` afterwards.
 * @public
 */
export interface TransitionResult {
  /** True when the record was written; false for a refusal (nothing written). */
  committed: boolean;
  /** The record's status before the request. */
  fromStatus: JobStatus;
  /** The status after it: the new one when committed, else `fromStatus`. */
  toStatus: JobStatus;
  /** Why, e.g. `completed: running -> completed`, `stale attempt: …`, `idempotent: …` or `conflict: …`. */
  reason: string;
  /** The record's `transition_seq` afterwards (unchanged by a refusal). */
  transitionSeq: number;
}

/**
 * The answer of {@link JobEngine.updateJobStatus}: whether it wrote, the record as it now stands, and why.
 * @public
 */
export interface JobUpdateResult {
  /** True when the record was written; false when a terminal status was protected. */
  committed: boolean;
  /** The record as it now stands (the unchanged one after a refusal). */
  record: JobRecord;
  /** `updated`, or the `conflict: …` text of a refusal. */
  reason: string;
}

type Locked<T> = { value: T; events: JobAuditEvent[] };

/**
 * The only writer of job records: one registry lock around one decision and one record write, the audit mirror appended after the lock is released.
 * @example
 * ```ts
 * const engine = new JobEngine('/w/.mam/jobs');
 * const job = await engine.registerJob('review the diff', { agentSession: 'herdr:reviewer' });
 * await engine.pickPending('herdr:reviewer');
 * const r = await engine.transition(job.job_id, 'completed', { expectedAttempt: 1, source: 'watcher' });
 * ```
 * @public
 */
export class JobEngine {
  /** The audit log the engine mirrors status changes and refused conflicts to. */
  readonly audit: JobAuditLog;
  readonly #ports: Pick<Ports, 'fs' | 'clock'>;
  readonly #lockTimeoutMs: number;
  readonly #ready: () => Promise<void>;

  /**
   * An engine over the registry dir (an absolute path); nothing is created until the first write. Throws an
   * {@link InvalidArgumentError} naming the parameter for a registry dir that is not a non-empty absolute path, or for
   * bad options.
   */
  constructor(
    /** The job registry dir (`.mam/jobs/`). */
    readonly registryDir: string,
    options: JobEngineOptions = {},
  ) {
    checkPathArg('registryDir', registryDir);
    const opts = checkJobEngineOptions(options);
    const { fs, clock } = resolvePorts(opts.ports);
    this.#ready = registryDirExists(fs, registryDir, opts.createRegistryDir === true);
    this.#ports = { fs, clock };
    this.#lockTimeoutMs = opts.lockTimeoutMs ?? 10_000;
    this.audit = new JobAuditLog(opts.logsDir ?? jobPaths.defaultLogsDir(registryDir), fs);
  }

  /** Creates a `pending` record (attempt 1, both counters 0) and its working dir; throws `JobArgumentError` when the id is taken. */
  async registerJob(prompt: string, options: RegisterJobOptions = {}): Promise<JobRecord> {
    const opts = checkRegisterJob(prompt, options);
    await this.#ready();
    const { fs } = this.#ports;
    const extra = checkJobFields(opts.fields);
    const jobId = requireJobId(opts.jobId ?? newJobId(this.#ports.clock.now()));
    await fs.mkdir(jobPaths.workDir(this.registryDir, jobId), { recursive: true });
    const now = this.#isoNow();
    const record: JobRecord = {
      job_id: jobId, prompt, agent_session: opts.agentSession ?? null, status: 'pending', attempt_id: 1,
      created_at: now, updated_at: now, last_seq: 0, transition_seq: 0, ...extra,
    };
    return this.#run(async () => {
      if (await this.#exists(jobId)) throw new JobArgumentError(`job ${jobId} already exists`, { jobId });
      await writeJobRecord(fs, this.registryDir, record);
      return { value: record, events: [] };
    });
  }

  /** The record as it is on disk now; throws `JobNotFoundError` or `JobRecordCorruptError`. */
  async load(jobId: string): Promise<JobRecord> {
    await this.#ready();
    return readJobRecord(this.#ports.fs, this.registryDir, jobId);
  }

  /** Every record in the registry, by id. */
  async list(): Promise<JobRecord[]> {
    await this.#ready();
    const ids = await listJobIds(this.#ports.fs, this.registryDir);
    return Promise.all(ids.map((id) => this.load(id)));
  }

  /** Applies one request of the transition table; a refusal is a result (`committed: false` with the reason), never a write. */
  async transition(jobId: string, request: TransitionRequest, opts: TransitionOptions = {}): Promise<TransitionResult> {
    if (!isTransitionRequest(request)) throw new JobArgumentError(`unknown transition request ${JSON.stringify(request)}`, { request });
    if (typeof opts !== 'object' || opts === null) throw new InvalidArgumentError('opts', 'must be an object');
    const fields = checkJobFields(opts.fields);
    const source = checkSourceOptions(opts).source ?? 'transition';
    return this.#run<TransitionResult>(async () => {
      const record = await this.load(jobId);
      const d = decideTransition(record, request, opts);
      if (d.kind === 'refuse') {
        const events = d.conflict ? [this.#conflict(record, request, source)] : [];
        return { value: { committed: false, fromStatus: d.from, toStatus: d.from, reason: d.reason, transitionSeq: record.transition_seq }, events };
      }
      const next = await this.#commit(record, d.to, fields);
      return {
        value: { committed: true, fromStatus: d.from, toStatus: d.to, reason: d.reason, transitionSeq: next.transition_seq },
        events: this.#changed(record, next, source),
      };
    });
  }

  /** Merges any fields (and `status`, if given) into the record and refreshes `updated_at`; only a terminal status is protected: moving it elsewhere is refused and audited. */
  async updateJobStatus(jobId: string, fields: { status?: JobStatus } & Record<string, unknown>, opts: { source?: string } = {}): Promise<JobUpdateResult> {
    if (typeof fields !== 'object' || fields === null) throw new InvalidArgumentError('fields', 'must be an object');
    checkSourceOptions(opts);
    const { status, ...rest } = fields;
    if (status !== undefined && !isJobStatus(status)) throw new JobArgumentError(`unknown job status ${JSON.stringify(status)}`, { status });
    const merged = checkJobFields(rest);
    const source = opts.source ?? 'updateJobStatus';
    return this.#run<JobUpdateResult>(async () => {
      const record = await this.load(jobId);
      if (status !== undefined && isTerminalStatus(record.status) && status !== record.status) {
        const reason = `conflict: status ${status} refused, the job is already ${record.status}`;
        return { value: { committed: false, record, reason }, events: [this.#conflict(record, status, source)] };
      }
      const next = await this.#commit(record, status ?? record.status, merged);
      return { value: { committed: true, record: next, reason: 'updated' }, events: this.#changed(record, next, source) };
    });
  }

  /** Claims the oldest pending job of `agentSession` (by `created_at`, then id) exactly once across processes; null when there is none. */
  async pickPending(agentSession: string, opts: { source?: string } = {}): Promise<JobRecord | null> {
    checkNameArg('agentSession', agentSession);
    checkSourceOptions(opts);
    const { fs } = this.#ports;
    return this.#run(async () => {
      const records = await Promise.all((await listJobIds(fs, this.registryDir)).map((id) => this.load(id)));
      const oldest = records
        .filter((r) => r.status === 'pending' && r.agent_session === agentSession)
        .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.job_id.localeCompare(b.job_id))[0];
      if (oldest === undefined) return { value: null, events: [] };
      const next = await this.#commit(oldest, 'running', {});
      return { value: next, events: this.#changed(oldest, next, opts.source ?? 'pickPending') };
    });
  }

  /** Bumps and returns the record's `last_seq`; never touches the status or `transition_seq`. */
  async nextSeq(jobId: string): Promise<number> {
    return this.#run(async () => {
      const record = await this.load(jobId);
      const next: JobRecord = { ...record, last_seq: record.last_seq + 1 };
      await writeJobRecord(this.#ports.fs, this.registryDir, next);
      return { value: next.last_seq, events: [] };
    });
  }

  // The lock covers one decision and one record write; the audit lines are appended only after it is released (G5).
  async #run<T>(locked: () => Promise<Locked<T>>): Promise<T> {
    const { fs, clock } = this.#ports;
    await this.#ready();
    await fs.mkdir(this.registryDir, { recursive: true });
    const { value, events } = await withLock(jobPaths.lock(this.registryDir), { clock, timeoutMs: this.#lockTimeoutMs }, locked);
    const jobId = events[0]?.job_id;
    if (jobId !== undefined) await this.audit.append(jobId, events);
    return value;
  }

  async #commit(record: JobRecord, status: JobStatus, fields: Record<string, unknown>): Promise<JobRecord> {
    const next: JobRecord = { ...record, ...fields, status, transition_seq: record.transition_seq + 1, updated_at: this.#isoNow() };
    await writeJobRecord(this.#ports.fs, this.registryDir, next);
    return next;
  }

  #changed(before: JobRecord, after: JobRecord, source: string): JobAuditEvent[] {
    if (before.status === after.status) return [];
    return [{ event: 'status_changed', job_id: after.job_id, from: before.status, to: after.status, transition_seq: after.transition_seq, source, at: after.updated_at }];
  }

  #conflict(record: JobRecord, request: TransitionRequest | JobStatus, source: string): JobAuditEvent {
    return { event: 'conflict_refused', job_id: record.job_id, request, current: record.status, transition_seq: record.transition_seq, source, at: this.#isoNow() };
  }

  async #exists(jobId: string): Promise<boolean> {
    try {
      await this.#ports.fs.lstat(jobPaths.record(this.registryDir, jobId));
      return true;
    } catch (err) {
      if (isPortError(err, 'NotFound')) return false;
      throw err;
    }
  }

  #isoNow(): string {
    return new Date(this.#ports.clock.now()).toISOString();
  }
}
