// Every class and free function of the reset, autopin, jobs, lifecycle, orchestrators and loop areas refuses a bad
// workspace (or registry dir) with one InvalidArgumentError naming the parameter — undefined or a number from plain JS,
// an empty string, a relative path (it would be resolved against cwd), a path that does not exist, a file, a NUL byte —
// and creates nothing on disk doing so (cwd is a scratch dir here, so a relative path resolved against it would show).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autopinLoopDeps } from '../../../src/autopin/autopin-loop-deps.js';
import { AutoPin } from '../../../src/autopin/autopin.js';
import { reconcile } from '../../../src/autopin/reconcile.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { JobEngine } from '../../../src/jobs/job-engine.js';
import { SessionLifecycle } from '../../../src/lifecycle/session-lifecycle.js';
import { DispatchStore } from '../../../src/loop/dispatch-store.js';
import { LoopGuard } from '../../../src/loop/loop-guard.js';
import { runLoop } from '../../../src/loop/run-loop.js';
import { ShadowRunner } from '../../../src/loop/shadow-runner.js';
import { HerdrWatcher } from '../../../src/loop/herdr-watcher.js';
import { ReconnectBackoff } from '../../../src/loop/reconnect-backoff.js';
import { Orchestrators } from '../../../src/purge/orchestrators.js';
import { ResetPlanner } from '../../../src/reset/reset-planner.js';
import { treeSnapshot } from '../../helpers/tree-snapshot.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-ws-args-')));
const file = join(root, 'a-file');
const before = process.cwd();
const JOB = 'job-20261130T014900Z-1a2b3c4d';

beforeAll(() => {
  writeFileSync(file, 'x');
  process.chdir(root);
});
afterAll(() => {
  process.chdir(before);
  rmSync(root, { recursive: true, force: true });
});

// The bad values, by name: what the workspace argument is, and the problem it must be refused for.
const BAD: [string, unknown, RegExp][] = [
  ['undefined', undefined, /must be a string/],
  ['a number', 42, /must be a string/],
  ['an empty string', '', /must not be empty/],
  ['a relative path', 'relative-ws', /absolute/],
  ['a path that does not exist', join(root, 'nonexistent'), /does not exist/],
  ['a file', file, /not a directory/],
  ['a NUL byte', `${root}/ws\0x`, /NUL/],
];

// Each area: how to build it over a workspace value (as plain JS would) and its first call; the parameter it must name.
type Area = { param: string; run: (ws: unknown) => Promise<unknown> };
const jobsDirOf = (ws: unknown): unknown => (typeof ws === 'string' && ws.startsWith('/') && !ws.includes('\0') && ws !== file ? join(ws, '.mam', 'jobs') : ws);
const AREAS: Record<string, Area> = {
  ResetPlanner: { param: 'workspace', run: async (ws) => new ResetPlanner(ws as string).plan() },
  'ResetPlanner.run': { param: 'workspace', run: async (ws) => new ResetPlanner(ws as string).run({ dryRun: true }) },
  AutoPin: { param: 'workspace', run: async (ws) => new AutoPin(ws as string, { home: root }).handleCompleted(JOB, { dispatchToken: 't', attempt: 1 }) },
  reconcile: { param: 'workspace', run: async (ws) => reconcile(ws as string, { home: root }) },
  autopinLoopDeps: { param: 'workspace', run: async (ws) => autopinLoopDeps(ws as string, { home: root }).autopin.handleCompleted(JOB, { dispatchToken: 't', attempt: 1 }) },
  JobEngine: { param: 'registryDir', run: async (ws) => new JobEngine(jobsDirOf(ws) as string).registerJob('p') },
  SessionLifecycle: { param: 'workspace', run: async (ws) => new SessionLifecycle(ws as string, { home: root }).stop('reviewer-claude-01') },
  Orchestrators: { param: 'workspace', run: async (ws) => new Orchestrators(ws as string, { home: root }).register('6f1c8a52-1d4e-4b8a-9d3c-2a7e5b9c0d11') },
  LoopGuard: { param: 'workspace', run: async (ws) => new LoopGuard(ws as string).acquire() },
  DispatchStore: { param: 'workspace', run: async (ws) => new DispatchStore(ws as string).recordDispatch(JOB, 1, 'u', 'g') },
  runLoop: { param: 'opts.workspace', run: async (ws) => runLoop({ workspace: ws as string, creator: 'creator-agy-01', task: 't', deps: {} as never }) },
};

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return null;
  } catch (err) {
    return err;
  }
}

describe.each(Object.entries(AREAS))('%s refuses a bad workspace with InvalidArgumentError', (_name, area) => {
  it.each(BAD)('%s', async (_what, value, problem) => {
    const snap = treeSnapshot(root);
    const err = await thrown(() => area.run(value));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', data: { param: area.param, problem: expect.stringMatching(problem) } });
    expect(treeSnapshot(root)).toEqual(snap);
  });
});

describe('options and method arguments', () => {
  const ws = root;
  const cases: [string, () => Promise<unknown>, string, RegExp][] = [
    ['ResetPlanner ports not an object', async () => new ResetPlanner(ws, { ports: 5 as never }), 'opts.ports', /object/],
    ['ResetPlanner lifecycle timeout NaN', async () => new ResetPlanner(ws, { lifecycle: { timeouts: { readyMs: Number.NaN } } }), 'opts.lifecycle.timeouts.readyMs', /finite/],
    ['ResetPlanner.run yes not a boolean', async () => new ResetPlanner(ws).run({ yes: 'yes' as never }), 'opts.yes', /boolean/],
    ['ResetPlanner.run onTrace not a function', async () => new ResetPlanner(ws).run({ dryRun: true, onTrace: 'log' as never }), 'opts.onTrace', /function/],
    ['ResetPlanner.precheck callerEnv not an object', async () => new ResetPlanner(ws).precheck({ callerEnv: 'HOME=/x' as never }), 'opts.callerEnv', /object/],
    ['ResetPlanner.recordId empty', async () => new ResetPlanner(ws).recordId(''), 'name', /empty/],
    ['SessionLifecycle relative home', async () => new SessionLifecycle(ws, { home: 'home' }), 'opts.home', /absolute/],
    ['SessionLifecycle negative timeout', async () => new SessionLifecycle(ws, { home: ws, timeouts: { exitMs: -1 } }), 'opts.timeouts.exitMs', /negative/],
    ['SessionLifecycle.create spec undefined', async () => new SessionLifecycle(ws, { home: ws }).create(undefined as never), 'spec', /object/],
    ['SessionLifecycle.create relative cwd', async () => new SessionLifecycle(ws, { home: ws }).create({ name: 'a', agent: 'claude', role: 'r', cwd: 'sub' }), 'spec.cwd', /absolute/],
    ['SessionLifecycle.stop name a number', async () => new SessionLifecycle(ws, { home: ws }).stop(7 as never), 'name', /string/],
    ['SessionLifecycle.stop purge not a boolean', async () => new SessionLifecycle(ws, { home: ws }).stop('a', { purge: 1 as never }), 'opts.purge', /boolean/],
    ['AutoPin relative jobsDir', async () => new AutoPin(ws, { home: ws, jobsDir: '.mam/jobs' }), 'opts.jobsDir', /absolute/],
    ['AutoPin lockTimeoutMs Infinity', async () => new AutoPin(ws, { home: ws, lockTimeoutMs: Number.POSITIVE_INFINITY }), 'opts.lockTimeoutMs', /finite/],
    ['reconcile apply not a boolean', async () => reconcile(ws, { home: ws, apply: 'yes' as never }), 'opts.apply', /boolean/],
    ['JobEngine relative logsDir', async () => new JobEngine(join(ws, '.mam', 'jobs'), { logsDir: 'logs' }), 'opts.logsDir', /absolute/],
    ['JobEngine lockTimeoutMs negative', async () => new JobEngine(join(ws, '.mam', 'jobs'), { lockTimeoutMs: -5 }), 'opts.lockTimeoutMs', /negative/],
    ['JobEngine.registerJob prompt undefined', async () => new JobEngine(join(ws, '.mam', 'jobs')).registerJob(undefined as never), 'prompt', /string/],
    ['JobEngine.pickPending agentSession empty', async () => new JobEngine(join(ws, '.mam', 'jobs')).pickPending(''), 'agentSession', /empty/],
    ['JobEngine.updateJobStatus fields undefined', async () => new JobEngine(join(ws, '.mam', 'jobs')).updateJobStatus(JOB, undefined as never), 'fields', /object/],
    ['Orchestrators.register id a number', async () => new Orchestrators(ws).register(5 as never), 'id', /string/],
    ['Orchestrators.remove yes not a boolean', async () => new Orchestrators(ws).remove('x', { yes: 'y' as never }), 'opts.yes', /boolean/],
    ['LoopGuard relative markerPath', async () => new LoopGuard(ws, { markerPath: 'marker' }), 'opts.markerPath', /absolute/],
    ['LoopGuard.acquire holder a number', async () => new LoopGuard(ws).acquire({ holder: 1 as never }), 'opts.holder', /string/],
    ['DispatchStore lockTimeoutMs NaN', async () => new DispatchStore(ws, { lockTimeoutMs: Number.NaN }), 'opts.lockTimeoutMs', /finite/],
    ['runLoop without options', async () => runLoop(undefined as never), 'opts', /object/],
    ['runLoop deps missing', async () => runLoop({ workspace: ws, creator: 'c', task: 't' } as never), 'opts.deps', /object/],
    ['HerdrWatcher agent empty', async () => new HerdrWatcher({ agent: '' }), 'opts.agent', /empty/],
    ['ReconnectBackoff baseMs negative', async () => new ReconnectBackoff({ baseMs: -1 }), 'opts.baseMs', /negative/],
    ['HerdrWatcher backoff maxMs NaN', async () => new HerdrWatcher({ agent: 'a', backoff: { maxMs: Number.NaN } }), 'opts.backoff.maxMs', /finite/],
    ['ShadowRunner without options', async () => new ShadowRunner(undefined as never), 'opts', /object/],
    ['ShadowRunner relative workspace', async () => new ShadowRunner({ workspace: 'ws' }), 'opts.workspace', /absolute/],
  ];
  it.each(cases)('%s', async (_what, run, param, problem) => {
    const snap = treeSnapshot(root);
    const err = await thrown(run);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', data: { param, problem: expect.stringMatching(problem) } });
    expect(treeSnapshot(root)).toEqual(snap);
  });

  it('an opt-in lets a missing workspace through: SessionLifecycle createWorkspace, JobEngine createRegistryDir', async () => {
    const jobs = join(root, 'made', '.mam', 'jobs');
    const job = await new JobEngine(jobs, { createRegistryDir: true }).registerJob('p');
    expect(job.status).toBe('pending');
    rmSync(join(root, 'made'), { recursive: true, force: true });
    // The lifecycle's check passes; the stop then finds no row (nothing is created for a stop).
    const stop = await new SessionLifecycle(join(root, 'made'), { home: root, createWorkspace: true }).stop('reviewer-claude-01');
    expect(stop.kind).toBe('not-found');
  });

  it('a workspace made after a refusal is accepted (a failure is not remembered)', async () => {
    const later = join(root, 'later');
    const planner = new ResetPlanner(later);
    await expect(planner.plan()).rejects.toBeInstanceOf(InvalidArgumentError);
    mkdirSync(later);
    expect((await planner.plan()).targets).toEqual([]);
    rmSync(later, { recursive: true, force: true });
  });
});
