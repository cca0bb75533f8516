import type { Ports } from '../ports/index.js';

/**
 * The creator's session as the loop needs it (from its registry row).
 * @public
 */
export interface LoopSession {
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
  find(name: string): Promise<LoopSession | null>;
}

/**
 * The part of a job record the loop reads.
 * @public
 */
export interface LoopJobRecord {
  job_id: string;
  status: string;
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
  registerJob(prompt: string, opts: { agentSession: string }): Promise<LoopJobRecord>;
  load(jobId: string): Promise<LoopJobRecord>;
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
  kind: string;
  reason?: string;
  name?: string | null;
}

/**
 * AutoPin as the loop uses it (an `AutoPin` fits).
 * @public
 */
export interface LoopPinner {
  handleCompleted(jobId: string, opts: { dispatchToken: string; attempt: number }): Promise<LoopPinResult>;
}

/**
 * Everything the loop is handed rather than imports (the loop package reaches no registry, engine or adapter itself):
 * build it with `autopinLoopDeps(workspace)`.
 * @public
 */
export interface LoopDeps {
  jobs: LoopJobs;
  sessions: LoopSessions;
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
  workspace: string;
  /** The creator's row name. */
  creator: string;
  /** The prompt. */
  task: string;
  deps: LoopDeps;
  ports?: Partial<Ports>;
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
  decisions: number;
  last: { decision: string; reason: string; would_complete: boolean } | null;
}
