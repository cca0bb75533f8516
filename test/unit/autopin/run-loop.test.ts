import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autopinLoopDeps } from '../../../src/autopin/index.js';
import { DispatchStore, type LoopDeps, type LoopOutcome, type LoopPinner, runLoop, type RunLoopOptions } from '../../../src/loop/index.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { makeRow } from '../../helpers/registry-fixtures.js';

const H1 = 'a1000001-0000-4000-8000-000000000001';
const NAME = 'creator-hermes-01';
const PID = 4242;
const TIMING = { waitMs: 1_000, quiescenceMs: 500, maxMs: 20_000 };

describe('runLoop (in-process: FakeHerdr, fake process table, real files)', () => {
  let w: AutopinWorld;
  let deps: LoopDeps;
  let pins: Array<{ jobId: string; dispatchToken: string; attempt: number }>;
  let traces: string[];
  beforeEach(async () => {
    w = await autopinWorld('loop');
    await w.rows([makeRow(NAME, 'hermes', w.ws, { epoch: EPOCH, pid: PID })]);
    w.hermes([[H1, w.ws, EPOCH + 10]]);
    w.proc.add({ pid: PID, ppid: 1, argv: ['hermes'], startedAtMs: w.clock.now() - 5_000 });
    w.herdr.addAgent({ name: NAME, kind: 'hermes', status: 'idle', cwd: w.ws, pid: PID, agentSession: { source: 'herdr:hermes', agent: 'hermes', kind: 'id', value: H1 } });
    const real = autopinLoopDeps(w.ws, { ports: w.ports, home: w.home });
    pins = [];
    const autopin: LoopPinner = {
      handleCompleted: async (jobId, opts) => {
        pins.push({ jobId, ...opts });
        return real.autopin.handleCompleted(jobId, opts);
      },
    };
    deps = { ...real, autopin };
    traces = [];
  });
  afterEach(async () => {
    await w.dispose();
  });

  const run = (over: Partial<RunLoopOptions> = {}): Promise<LoopOutcome> =>
    runLoop({ workspace: w.ws, creator: NAME, task: 'write the report', deps, ports: w.ports, timing: TIMING, onTrace: (l) => traces.push(l), ...over });
  const jobIds = (): string[] => (existsSync(w.jobsDir) ? readdirSync(w.jobsDir).filter((f) => f.endsWith('.json')) : []);
  const guardPath = (): string => join(w.ws, '.mam', 'loop-guard-active');

  it('prompts the creator, records the dispatch and the anchor, completes the job through the engine and runs AutoPin', async () => {
    const out = await run();
    expect(out).toMatchObject({ kind: 'completed', attempt: 1, autopin: { kind: 'pinned', name: NAME } });
    if (out.kind !== 'completed') return;
    const job = await w.jobs.load(out.jobId);
    expect(job).toMatchObject({ status: 'completed', agent_session: `herdr:${NAME}`, prompt: 'write the report', transition_seq: 2 });
    const store = new DispatchStore(w.ws, { ports: w.ports });
    const ctx = await store.loadDispatch(out.jobId);
    expect(ctx).toMatchObject({ attempt_id: 1, agent_session_uuid: H1, dispatch_ack: true, execution_anchor_observed: true });
    expect(ctx?.pane_process_generation).toMatch(new RegExp(`^w[^:]+:p[^:]+:${PID}:`));
    expect(pins).toEqual([{ jobId: out.jobId, dispatchToken: expect.stringContaining(out.jobId), attempt: 1 }]);
    expect(await w.row(NAME)).toMatchObject({ hermes_conversation_id_own: H1, session_id_source: 'discovered', session_id_verified: true });
    const decisions = await store.readDecisions(out.jobId);
    expect(decisions.length).toBe(out.shadow.decisions);
    expect(decisions.length).toBeGreaterThanOrEqual(2);
    expect(decisions.every((d) => d.shadow === true && d.would_complete === false)).toBe(true);
    expect(decisions.at(-1)?.reason).toContain('report');
    const prompts = w.herdr.calls.filter((c) => c.op === 'agentPrompt');
    expect(prompts).toHaveLength(1);
    expect(prompts[0]?.argv.slice(0, 6)).toEqual(['--session', 'default', 'agent', 'prompt', NAME, 'write the report']);
    expect(existsSync(guardPath())).toBe(false);
    expect(traces.every((t) => t.startsWith(`loop [${NAME}]: `) && !t.includes(H1))).toBe(true);
  });

  it('logs would-complete once the report is finalised (manifest committed, hash verified)', async () => {
    const out = await run({
      onTrace: (l) => {
        traces.push(l);
        if (!l.includes('dispatch recorded')) return;
        const dir = join(w.jobsDir, jobIds()[0]!.replace(/\.json$/, ''));
        writeFileSync(join(dir, 'report.md'), '# done\n');
        writeFileSync(join(dir, 'report.manifest.json'), JSON.stringify({ sha256: createHash('sha256').update('# done\n').digest('hex') }));
      },
    });
    expect(out.kind).toBe('completed');
    expect(out.kind === 'completed' && out.shadow.last).toMatchObject({ decision: 'candidate_approved', would_complete: true });
    expect(traces).toContain(`loop [${NAME}]: shadow: would complete`);
  });

  it('refuses while another live process holds the loop guard, touching no job and prompting nothing', async () => {
    w.proc.add({ pid: 4300, argv: ['bash', 'reset.sh'], startedAtMs: Date.UTC(2026, 10, 30, 0, 30, 0) });
    const marker = 'pid=4300\nlstart=Mon Nov 30 00:30:00 2026\nstarted=2026-11-30T00:30:00Z\n';
    writeFileSync(guardPath(), marker);
    const out = await run();
    expect(out).toMatchObject({ kind: 'refused', reason: 'loop-running' });
    expect(out.kind === 'refused' && out.message).toContain('Another multi-agent-mux-loop is already running (pid 4300');
    expect(jobIds()).toEqual([]);
    expect(w.herdr.calls).toEqual([]);
    expect(readFileSync(guardPath(), 'utf8')).toBe(marker);
  });

  it('a stale guard (dead pid) does not block; the guard is gone again afterwards', async () => {
    writeFileSync(guardPath(), 'pid=999999\nlstart=Thu Jan 1 00:00:00 1970\n');
    expect((await run()).kind).toBe('completed');
    expect(existsSync(guardPath())).toBe(false);
  });

  it('refuses an unregistered, a stopped, an absent and a busy creator before any job exists, and releases the guard', async () => {
    const unregistered = await run({ creator: 'x' });
    expect(unregistered).toMatchObject({ kind: 'refused', reason: 'not-registered', message: expect.stringContaining('"x" is not registered') });
    await w.rows([makeRow(NAME, 'hermes', w.ws, { status: 'stopped' }), makeRow('ghost', 'hermes', w.ws)]);
    expect(await run()).toMatchObject({ kind: 'refused', reason: 'not-running' });
    expect(await run({ creator: 'ghost' })).toMatchObject({ kind: 'refused', reason: 'agent-unavailable', message: expect.stringContaining('agent_not_found') });
    await w.rows([makeRow(NAME, 'hermes', w.ws, { pid: PID })]);
    w.herdr.setStatus(NAME, 'working');
    expect(await run()).toMatchObject({ kind: 'refused', reason: 'agent-busy' });
    expect(jobIds()).toEqual([]);
    expect(w.herdr.calls.filter((c) => c.op === 'agentPrompt')).toEqual([]);
    expect(existsSync(guardPath())).toBe(false);
  });

  it('an agent that exits mid-job fails the job (error), and AutoPin does not run', async () => {
    w.herdr.onPrompt(NAME, ['working', 'exit']);
    const out = await run();
    expect(out).toMatchObject({ kind: 'failed', step: 'watch', status: 'error', reason: expect.stringContaining('gone') });
    expect(pins).toEqual([]);
  });

  it('an agent that never reacts ends at the deadline as deadline_timeout (error)', async () => {
    w.herdr.onPrompt(NAME, []);
    const out = await run({ timing: { ...TIMING, maxMs: 5_000 } });
    expect(out).toMatchObject({ kind: 'failed', step: 'watch', status: 'error', reason: expect.stringContaining('did not finish') });
    const store = new DispatchStore(w.ws, { ports: w.ports });
    expect((await store.loadDispatch(out.kind === 'failed' ? out.jobId : ''))?.execution_anchor_observed).toBe(false);
  });

  it('a blocked agent is watched on (shadow: blocked) until it finishes', async () => {
    w.herdr.onPrompt(NAME, ['working', 'blocked', 'working', 'idle']);
    const out = await run();
    expect(out.kind).toBe('completed');
    const decisions = await new DispatchStore(w.ws, { ports: w.ports }).readDecisions(out.kind === 'completed' ? out.jobId : '');
    expect(decisions.map((d) => d.decision)).toContain('blocked');
  });

  it('a process restarted in the pane mid-flight is not a completion', async () => {
    const out = await run({
      onTrace: (l) => {
        traces.push(l);
        if (l.includes('dispatch recorded')) w.proc.kill(PID);
      },
    });
    expect(out).toMatchObject({ kind: 'failed', step: 'watch', status: 'error', reason: expect.stringContaining('process changed') });
    expect(pins).toEqual([]);
  });

  it('an aborted signal cancels the job and releases the guard', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const out = await run({ signal: ctl.signal });
    expect(out).toMatchObject({ kind: 'aborted', status: 'cancelled' });
    expect(existsSync(guardPath())).toBe(false);
  });
});
