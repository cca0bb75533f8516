import type { Ports } from '../ports/index.js';

/**
 * The creator's session as the loop needs it (from its registry row).
 * @public
 */
export interface LoopSession {
  /** The creator's row name. */
  name: string;
  /** The row's status (`running`, `stopped`, `terminated`). */
  status: string;
  /** The herdr server (session) its pane lives on. */
  herdrServer: string;
  /** The row's pane pid, used when herdr cannot say which process the pane runs. */
  panePid: number | null;
}

/**
 * Finds the creator's session: the loop reads the session registry only through this.
 * @public
 */
export interface LoopSessions {
  /** The session of that row name, or null when the registry has no such row. */
  find(name: string): Promise<LoopSession | null>;
}

/**
 * The part of a job record the loop reads.
 * @public
 */
export interface LoopJobRecord {
  /** The job's id. */
  job_id: string;
  /** The job's status (`pending`, `running`, `completed`, …). */
  status: string;
  /** The job's current attempt. */
  attempt_id: number;
}

/**
 * The transition requests the loop makes.
 * @public
 */
export type LoopTransitionRequest = 'claim' | 'completed' | 'error' | 'cancelled' | 'deadline_timeout';

/**
 * The job engine as the loop uses it (a `JobEngine` fits): the loop writes job records only through it.
 * @public
 */
export interface LoopJobs {
  /** The job registry dir; a job's working dir (`<dir>/<job_id>/`) holds its report. */
  readonly registryDir: string;
  /** Registers a `pending` job owned by `agentSession` (`herdr:<creator>`). */
  registerJob(prompt: string, opts: { agentSession: string }): Promise<LoopJobRecord>;
  /** The job's record as it is on disk now. */
  load(jobId: string): Promise<LoopJobRecord>;
  /** Applies one transition request under its guards; a refusal is `committed: false` with the reason. */
  transition(
    jobId: string,
    request: LoopTransitionRequest,
    opts: { expectedStatus?: 'pending' | 'running'; expectedAttempt?: number; fields?: Record<string, unknown>; source?: string },
  ): Promise<{ committed: boolean; reason: string }>;
}

/**
 * What AutoPin answered, as the loop reports it.
 * @public
 */
export interface LoopPinResult {
  /** AutoPin's result kind: `pinned`, `skipped` or `failed`. */
  kind: string;
  /** Why it skipped or failed. */
  reason?: string;
  /** The row it was about, or null when none could be told. */
  name?: string | null;
}

/**
 * AutoPin as the loop uses it (an `AutoPin` fits).
 * @public
 */
export interface LoopPinner {
  /** Handles one completed job attempt once (see {@link AutoPin.handleCompleted}). */
  handleCompleted(jobId: string, opts: { dispatchToken: string; attempt: number }): Promise<LoopPinResult>;
}

/**
 * Everything the loop is handed rather than imports (the loop package reaches no registry, engine or adapter itself):
 * build it with `autopinLoopDeps(workspace)`.
 * @public
 */
export interface LoopDeps {
  /** The job engine over the workspace's job registry. */
  jobs: LoopJobs;
  /** Finds the creator's row. */
  sessions: LoopSessions;
  /** Runs AutoPin on the completed job. */
  autopin: LoopPinner;
}

/**
 * How long the loop waits: each `agent wait`, the quiescence an idle agent must hold before the job counts as finished,
 * the whole run, and the age beyond which a snapshot is stale for the shadow policy.
 * @public
 */
export interface LoopTiming {
  /** Each `agent wait --timeout` (ms, default 15 000). */
  waitMs: number;
  /** How long the agent must stay idle after the execution anchor (ms, default 10 000). */
  quiescenceMs: number;
  /** The whole watch; past it the job ends as `deadline_timeout` (ms, default 3 600 000; checked between waits). */
  maxMs: number;
  /** `limits.max_snapshot_age_ms` of the shadow scenarios (default 5 000). */
  maxSnapshotAgeMs: number;
}

/**
 * Options of {@link runLoop}.
 * @public
 */
export interface RunLoopOptions {
  /** The workspace: its `.mam/` holds the loop guard and the dispatch store. */
  workspace: string;
  /** The creator's row name. */
  creator: string;
  /** The prompt. */
  task: string;
  /** The job engine, session lookup and AutoPin the loop works through. */
  deps: LoopDeps;
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /**
   * Waits to override; a value that is not a positive number of ms (`quiescenceMs` may be 0) throws a
   * `RunLoopArgumentError`.
   */
  timing?: Partial<LoopTiming>;
  /** Aborting ends the watch: the job is cancelled and the guard released. */
  signal?: AbortSignal;
  /** One line per step, `loop [<creator>]: …` (no conversation id). */
  onTrace?: (line: string) => void;
}

/**
 * How a loop run ended: refused before any job was registered (another loop or a reset holds the guard, an unregistered,
 * stopped, absent or busy creator); completed (the job is marked completed, AutoPin ran); failed at a step (the job, if
 * any, is in `status`); or aborted by the signal (the job cancelled).
 * @public
 */
export type LoopOutcome =
  | { kind: 'refused'; reason: 'loop-running' | 'not-registered' | 'not-running' | 'agent-unavailable' | 'agent-busy'; message: string }
  | { kind: 'completed'; jobId: string; attempt: number; autopin: LoopPinResult; shadow: LoopShadowSummary }
  | { kind: 'failed'; jobId: string; step: 'claim' | 'dispatch' | 'watch' | 'complete'; reason: string; status: string; shadow: LoopShadowSummary }
  | { kind: 'aborted'; jobId: string; status: string; shadow: LoopShadowSummary };

/**
 * What the shadow policy said during a run: how many observations it judged, and its last decision.
 * @public
 */
export interface LoopShadowSummary {
  /** How many observations the shadow policy judged. */
  decisions: number;
  /** Its last decision, reason and whether it would have completed the job; null when it judged none. */
  last: { decision: string; reason: string; would_complete: boolean } | null;
}
