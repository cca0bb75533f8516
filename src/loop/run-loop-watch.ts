import { join } from 'node:path';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import type { HerdrAgentInfo, HerdrAgentStatus } from '../ports/herdr.js';
import type { Ports } from '../ports/index.js';
import type { DispatchStore } from './dispatch-store.js';
import { HerdrWatcher } from './herdr-watcher.js';
import { readLoopReportEvidence } from './run-loop-report.js';
import { type LoopDispatchPoint, observedGeneration, observedUuid } from './run-loop-generation.js';
import type { LoopJobs, LoopShadowSummary, LoopTiming } from './run-loop-types.js';
import type { ShadowRunner } from './shadow-runner.js';
import { describeError } from '../errors.js';

/**
 * What one loop watch needs: where the agent is, the job and its dispatch, the store and the shadow runner.
 * @public
 */
export interface LoopWatchContext {
  /** The ports the watch reads through (herdr, process table, filesystem, clock). */
  ports: Ports;
  /** The creator's row name (the watcher sanitises it for herdr). */
  creator: string;
  /** The herdr server (session) the creator's pane lives on. */
  server: string;
  /** The job dispatched. */
  jobId: string;
  /** The job attempt dispatched. */
  attempt: number;
  /** Where the prompt went: the generation an observation must still show. */
  point: LoopDispatchPoint;
  /** The job engine, read for the job record and its working dir; the watch writes no record. */
  jobs: LoopJobs;
  /** Receives the execution anchor; the dispatch context is read back from it. */
  store: DispatchStore;
  /** Evaluates the shadow policy on every observation. */
  shadow: ShadowRunner;
  /** The waits, defaults filled in. */
  timing: LoopTiming;
  /** Aborting ends the watch with `aborted`. */
  signal?: AbortSignal | undefined;
  /** Receives one line per step. */
  trace: (line: string) => void;
}

/**
 * How a watch ended: the agent finished (execution anchor seen, then idle or done for the quiescence time, still the
 * dispatched process), the agent or its process went away, the deadline passed, or the signal aborted.
 * @public
 */
export type LoopWatchEnd =
  | { kind: 'finished'; snapshot: HerdrAgentInfo }
  | { kind: 'gone' | 'restarted'; reason: string }
  | { kind: 'deadline'; reason: string }
  | { kind: 'aborted' };

const ALL: readonly HerdrAgentStatus[] = ['idle', 'working', 'blocked', 'done'];
const RESTING = new Set<string>(['idle', 'done']);

function errorText(err: unknown): string {
  return describeError(err);
}

/**
 * Watches the creator's agent after a dispatch with {@link HerdrWatcher}s — each wait asks for a status other than the
 * last one seen, a timeout is followed by a fresh `agent get` — records the execution anchor (working, or herdr's
 * `state_change_seq` past the dispatch's), and evaluates the shadow policy on every observation (logging would-complete).
 * It never writes a job record.
 * @public
 */
export class LoopWatch {
  /** What the shadow policy said so far. */
  readonly shadow: LoopShadowSummary = { decisions: 0, last: null };
  readonly #c: LoopWatchContext;
  readonly #watchers = new Map<string, HerdrWatcher>();
  readonly #herdrName: string;
  #status: string;
  #anchor = false;
  #restingSince: number | null = null;
  #quietErrors = 0;

  /**
   * A watch that starts from the creator's status as last seen (`initialStatus`); nothing is asked until {@link
   * LoopWatch.run}.
   */
  constructor(c: LoopWatchContext, initialStatus: string) {
    this.#c = c;
    this.#herdrName = sanitizeHerdrAgentName(c.creator);
    this.#status = initialStatus;
  }

  /** Watches until the agent finishes or the watch ends otherwise. */
  async run(): Promise<LoopWatchEnd> {
    const { ports, timing, signal } = this.#c;
    const deadline = ports.clock.monotonic() + timing.maxMs;
    for (;;) {
      if (signal?.aborted === true) return { kind: 'aborted' };
      if (ports.clock.monotonic() >= deadline) return { kind: 'deadline', reason: `the agent did not finish within ${timing.maxMs} ms` };
      const step = await this.#step();
      if (step !== null) return step;
    }
  }

  // One wait and what it shows; a watch end, or null to go on.
  async #step(): Promise<LoopWatchEnd | null> {
    const { ports, creator, server, timing, signal } = this.#c;
    const quiet = this.#anchor && this.#restingSince !== null;
    const until = quiet ? (['working', 'blocked'] as const) : ALL.filter((s) => s !== this.#status);
    const timeoutMs = Math.max(1, Math.round(quiet ? timing.quiescenceMs : timing.waitMs));
    const key = `${until.join(',')}/${timeoutMs}`;
    let watcher = this.#watchers.get(key);
    if (watcher === undefined) {
      watcher = new HerdrWatcher({ agent: creator, session: server, until, timeoutMs, ports });
      this.#watchers.set(key, watcher);
    }
    let got;
    const askedAt = ports.clock.monotonic();
    try {
      got = await watcher.next(signal);
    } catch (err) {
      if (signal?.aborted === true) return { kind: 'aborted' };
      throw err;
    }
    const out = got.outcome;
    if (out.kind === 'matched' && got.observation !== null) return this.#observe(out.agent, got.observation.observedAtMs);
    if (out.kind === 'agent_not_found' || (out.kind === 'error' && out.errorCode === 'agent_not_running')) {
      return { kind: 'gone', reason: `the creator's agent is gone (${out.errorCode}: ${out.message})` };
    }
    if (out.kind === 'timeout') {
      // A herdr that times out far too early must not turn the watch into a busy loop.
      const early = timeoutMs / 2 - (ports.clock.monotonic() - askedAt);
      if (early > 0) await ports.clock.sleep(early, signal).catch(() => undefined);
      // A timeout proves nothing by itself: look at the agent now.
      const now = await ports.herdr.agentGet(this.#herdrName, { session: server }).catch(() => null);
      if (now?.kind === 'ok') return this.#observe(now.value, ports.clock.now());
      if (now?.kind === 'error' && now.code === 'agent_not_found') return { kind: 'gone', reason: `the creator's agent is gone (agent_not_found: ${now.message})` };
      return null;
    }
    if (out.kind === 'matched') return null;
    this.#c.trace(`herdr did not answer the wait (${out.kind === 'transport_error' ? out.message : `${out.errorCode}: ${out.message}`}); retrying`);
    if (out.healthy) {
      // The socket answered with an error the backoff does not cover: do not ask again at once.
      this.#quietErrors = Math.min(this.#quietErrors + 1, 5);
      await ports.clock.sleep(250 * 2 ** this.#quietErrors, signal).catch(() => undefined);
    }
    return null;
  }

  async #observe(snap: HerdrAgentInfo, observedAtMs: number): Promise<LoopWatchEnd | null> {
    const { ports, point, store, jobId, timing } = this.#c;
    this.#quietErrors = 0;
    if (!this.#anchor && (snap.agent_status === 'working' || snap.state_change_seq > point.seq)) {
      this.#anchor = true;
      await store.markExecutionAnchor(jobId);
      this.#c.trace(`execution anchor observed (${snap.agent_status}, state_change_seq ${snap.state_change_seq})`);
    }
    this.#status = snap.agent_status;
    if (this.#anchor && RESTING.has(snap.agent_status)) this.#restingSince ??= observedAtMs;
    else this.#restingSince = null;
    const generation = await observedGeneration(ports, this.#c.server, point, snap);
    if (generation !== undefined && generation !== point.generation) {
      return { kind: 'restarted', reason: `the creator's agent process changed since the dispatch (${point.generation} → ${generation})` };
    }
    const idleFor = this.#restingSince === null ? 0 : Math.max(0, ports.clock.now() - this.#restingSince);
    await this.#judge(snap, observedAtMs, generation, idleFor);
    if (this.#anchor && this.#restingSince !== null && generation !== undefined && idleFor >= timing.quiescenceMs) return { kind: 'finished', snapshot: snap };
    return null;
  }

  async #judge(snap: HerdrAgentInfo, observedAtMs: number, generation: string | undefined, idleFor: number): Promise<void> {
    const { ports, jobs, store, jobId, point, timing } = this.#c;
    try {
      const record = await jobs.load(jobId);
      const uuid = observedUuid(point, snap);
      const entry = await this.#c.shadow.evaluate({
        scenario_id: `${jobId}#${this.shadow.decisions + 1}`,
        job: { job_id: record.job_id, status: record.status, attempt_id: record.attempt_id },
        dispatch_context: { ...(await store.loadDispatch(jobId)) },
        observation: {
          transport: 'ok', snapshot_age_ms: Math.max(0, ports.clock.now() - observedAtMs), agent: snap,
          job_id: record.job_id, attempt_id: record.attempt_id,
          ...(uuid === undefined ? {} : { agent_session_uuid: uuid }),
          ...(generation === undefined ? {} : { pane_process_generation: generation }),
        },
        quiescence: { idle_for_ms: idleFor, required_idle_ms: timing.quiescenceMs },
        filesystem: await readLoopReportEvidence(ports.fs, ports.clock, join(jobs.registryDir, jobId)),
        limits: { max_snapshot_age_ms: timing.maxSnapshotAgeMs },
      });
      this.shadow.decisions += 1;
      this.shadow.last = { decision: entry.decision, reason: entry.reason, would_complete: entry.would_complete };
      this.#c.trace(`shadow: ${entry.would_complete ? 'would complete' : `${entry.decision} (${entry.reason})`}`);
    } catch (err) {
      // The shadow policy only observes: its failure never stops the loop.
      this.#c.trace(`shadow: not evaluated (${errorText(err)})`);
    }
  }
}
