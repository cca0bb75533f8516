import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkPathArg, workspaceExists } from '../validation/workspace-args.js';
import { join } from 'node:path';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { DispatchStore } from './dispatch-store.js';
import { LoopGuard } from './loop-guard.js';
import { RunLoopArgumentError } from './run-loop-argument-error.js';
import { dispatchPointOf, type LoopDispatchPoint } from './run-loop-generation.js';
import type { LoopOutcome, LoopSession, LoopTiming, RunLoopOptions } from './run-loop-types.js';
import { LoopWatch, type LoopWatchEnd } from './run-loop-watch.js';
import { ShadowRunner } from './shadow-runner.js';
import { describeError } from '../errors.js';

const DEFAULT_TIMING: LoopTiming = { waitMs: 15_000, quiescenceMs: 10_000, maxMs: 3_600_000, maxSnapshotAgeMs: 5_000 };

function timingOf(given: Partial<LoopTiming> = {}): LoopTiming {
  const t = { ...DEFAULT_TIMING, ...given };
  for (const [k, v] of Object.entries(t)) {
    const zeroOk = k === 'quiescenceMs';
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (!zeroOk && v === 0)) throw new RunLoopArgumentError(`timing.${k} must be a ${zeroOk ? 'non-negative' : 'positive'} number of ms, got ${String(v)}`, { [k]: v });
  }
  return t;
}

function checkArguments(o: RunLoopOptions): void {
  if (typeof o !== 'object' || o === null) throw new InvalidArgumentError('opts', 'must be an object');
  checkPathArg('opts.workspace', o.workspace);
  if (typeof o.deps !== 'object' || o.deps === null) throw new InvalidArgumentError('opts.deps', 'must be an object (see autopinLoopDeps)');
  if (typeof o.creator !== 'string' || o.creator === '') throw new RunLoopArgumentError('the creator must be a row name', { creator: o.creator });
  if (typeof o.task !== 'string' || o.task.trim() === '') throw new RunLoopArgumentError('the task must be non-empty text', {});
  if (o.task.includes('\u0000')) throw new RunLoopArgumentError('the task must not contain a NUL byte', {});
  // herdr takes `--session` anywhere in its argv as its own option, even as a prompt's text.
  if (/^--session(=|$)/.test(o.task)) throw new RunLoopArgumentError('the task must not read as herdr\'s --session option', {});
}

type Ready = { kind: 'ready'; session: LoopSession; point: LoopDispatchPoint; status: string } | Extract<LoopOutcome, { kind: 'refused' }>;

// Everything that can refuse, before any job exists.
async function precheck(o: RunLoopOptions, ports: Ports): Promise<Ready> {
  const who = JSON.stringify(o.creator);
  const session = await o.deps.sessions.find(o.creator);
  if (session === null) return { kind: 'refused', reason: 'not-registered', message: `creator ${who} is not registered in ${join(o.workspace, '.mam', 'agent-sessions.yaml')}` };
  if (session.status !== 'running') return { kind: 'refused', reason: 'not-running', message: `creator ${who} is registered but ${session.status}, not running` };
  const got = await ports.herdr.agentGet(sanitizeHerdrAgentName(o.creator), { session: session.herdrServer });
  if (got.kind !== 'ok') {
    const why = got.kind === 'error' ? `${got.code}: ${got.message}` : got.message;
    return { kind: 'refused', reason: 'agent-unavailable', message: `creator ${who} has no live agent in herdr session ${session.herdrServer} (${why})` };
  }
  const status = got.value.agent_status;
  if (status !== 'idle' && status !== 'done') return { kind: 'refused', reason: 'agent-busy', message: `creator ${who} is ${status}: the loop prompts only an idle agent` };
  const point = await dispatchPointOf(ports, session.herdrServer, got.value, session.panePid);
  if (point === null) return { kind: 'refused', reason: 'agent-unavailable', message: `creator ${who}: cannot tell which process its pane runs` };
  return { kind: 'ready', session, point, status };
}

/**
 * `mam loop`: under the loop guard (refused while another loop or a reset holds it — "Another multi-agent-mux-loop is
 * already running"), for a registered, running, idle creator: registers and claims a job for its session, prompts it
 * through herdr, records the dispatch, watches it (execution anchor, then quiescence), evaluates the shadow policy on each
 * observation, marks the job completed through the engine when the agent finishes, and runs AutoPin. The guard is released
 * on every exit.
 * @example
 * ```ts
 * const out = await runLoop({ workspace: '/repo', creator: 'creator-agy-01', task: 'write the report', deps: autopinLoopDeps('/repo') });
 * if (out.kind === 'refused') process.exitCode = 1;
 * ```
 * @public
 */
export async function runLoop(o: RunLoopOptions): Promise<LoopOutcome> {
  checkArguments(o);
  const timing = timingOf(o.timing);
  const ports = resolvePorts(o.ports);
  await workspaceExists(ports.fs, 'opts.workspace', o.workspace)();
  const guard = await new LoopGuard(o.workspace, { ports }).acquire({ holder: 'loop' });
  if (guard.kind === 'refused') return { kind: 'refused', reason: 'loop-running', message: guard.message };
  try {
    return await guarded(o, ports, timing);
  } finally {
    await guard.guard.release();
  }
}

async function guarded(o: RunLoopOptions, ports: Ports, timing: LoopTiming): Promise<LoopOutcome> {
  const trace = (line: string): void => o.onTrace?.(`loop [${o.creator}]: ${line}`);
  const ready = await precheck(o, ports);
  if (ready.kind === 'refused') return ready;
  const { jobs, autopin } = o.deps;
  const server = ready.session.herdrServer;
  const job = await jobs.registerJob(o.task, { agentSession: `herdr:${o.creator}` });
  const jobId = job.job_id;
  const attempt = job.attempt_id;
  const noShadow = { decisions: 0, last: null };
  const end = async (request: 'error' | 'cancelled' | 'deadline_timeout', reason: string): Promise<string> => {
    const r = await jobs.transition(jobId, request, { expectedStatus: 'running', expectedAttempt: attempt, fields: { loop_reason: reason }, source: 'loop' });
    trace(`job ${jobId} ${r.committed ? `marked ${request}` : `not marked ${request} (${r.reason})`}: ${reason}`);
    return (await jobs.load(jobId)).status;
  };
  const claim = await jobs.transition(jobId, 'claim', { expectedStatus: 'pending', expectedAttempt: attempt, source: 'loop' });
  if (!claim.committed) return { kind: 'failed', jobId, step: 'claim', reason: claim.reason, status: (await jobs.load(jobId)).status, shadow: noShadow };
  trace(`job ${jobId} registered and claimed`);
  const prompted = await ports.herdr.agentPrompt(sanitizeHerdrAgentName(o.creator), o.task, undefined, { session: server });
  if (prompted.kind !== 'ok') {
    const reason = `herdr did not take the prompt (${prompted.kind === 'error' ? `${prompted.code}: ${prompted.message}` : prompted.message})`;
    return { kind: 'failed', jobId, step: 'dispatch', reason, status: await end('error', reason), shadow: noShadow };
  }
  const store = new DispatchStore(o.workspace, { ports });
  const ctx = await store.recordDispatch(jobId, attempt, ready.point.uuid, ready.point.generation);
  trace(`prompted through herdr; dispatch recorded (attempt ${attempt})`);
  const watch = new LoopWatch(
    { ports, creator: o.creator, server, jobId, attempt, point: ready.point, jobs, store, shadow: new ShadowRunner({ workspace: o.workspace, ports }), timing, signal: o.signal, trace },
    ready.status,
  );
  let ended: LoopWatchEnd;
  try {
    ended = await watch.run();
  } catch (err) {
    await end('error', `the watch failed: ${describeError(err)}`).catch(() => undefined);
    throw err;
  }
  const shadow = watch.shadow;
  switch (ended.kind) {
    case 'aborted':
      return { kind: 'aborted', jobId, status: await end('cancelled', 'the loop was interrupted'), shadow };
    case 'deadline':
      return { kind: 'failed', jobId, step: 'watch', reason: ended.reason, status: await end('deadline_timeout', ended.reason), shadow };
    case 'gone':
    case 'restarted':
      return { kind: 'failed', jobId, step: 'watch', reason: ended.reason, status: await end('error', ended.reason), shadow };
    case 'finished':
      break;
    default: {
      const never: never = ended;
      return never;
    }
  }
  const done = await jobs.transition(jobId, 'completed', { expectedStatus: 'running', expectedAttempt: attempt, source: 'loop' });
  if (!done.committed) return { kind: 'failed', jobId, step: 'complete', reason: done.reason, status: (await jobs.load(jobId)).status, shadow };
  trace(`job ${jobId} completed`);
  const dispatchToken = `${jobId}:${attempt}:${ctx.dispatched_at ?? ''}`;
  const pinned = await autopin.handleCompleted(jobId, { dispatchToken, attempt }).catch((err: unknown) => ({ kind: 'failed', reason: describeError(err) }));
  trace(`autopin: ${pinned.kind}${pinned.reason === undefined ? '' : ` (${pinned.reason})`}`);
  return { kind: 'completed', jobId, attempt, autopin: pinned, shadow };
}
