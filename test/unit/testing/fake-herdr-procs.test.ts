import { describe, expect, it } from 'vitest';
import { buildFakeHerdrCore } from '../../../src/testing/herdr/fake-herdr-core.js';
import type { FakeHerdrProcIo, FakeHerdrSpawnRequest, FakeHerdrSpawnResult } from '../../../src/testing/herdr/fake-herdr-core-procs.js';
import { createFakeHerdrState, editFakeHerdrState } from '../../../src/testing/herdr/fake-herdr-editor.js';
import type { FakeHerdrAgentProcess, FakeHerdrOutcome, FakeHerdrState } from '../../../src/testing/herdr/fake-herdr-types.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';

const core = buildFakeHerdrCore();
const ID = 'a7800001-0000-4000-8000-000000000001';

// Processes as a table the test scripts: what they printed and whether they live; every spawn and signal is recorded.
class ScriptedProcs implements FakeHerdrProcIo {
  readyAfterMs = 1_000;
  mode: 'spawn' | 'simulate' | 'fail' = 'spawn';
  readonly table = new Map<number, { alive: boolean; output: string }>();
  readonly spawned: FakeHerdrSpawnRequest[] = [];
  readonly signals: Array<[number, string]> = [];
  #pid = 5_000;

  spawn(req: FakeHerdrSpawnRequest): FakeHerdrSpawnResult {
    this.spawned.push(req);
    if (this.mode === 'simulate') return { kind: 'simulate' };
    if (this.mode === 'fail') return { kind: 'failed', message: `${req.exe}: not found on PATH` };
    const pid = this.#pid++;
    this.table.set(pid, { alive: true, output: '' });
    return { kind: 'spawned', pid, startTicks: 77, stdout: `/out/${pid}.out` };
  }
  probe(p: FakeHerdrAgentProcess) {
    return this.table.get(p.pid) ?? { alive: false, output: '' };
  }
  signal(p: FakeHerdrAgentProcess, s: 'SIGTERM' | 'SIGKILL') {
    this.signals.push([p.pid, s]);
  }
  print(pid: number, text: string): void {
    (this.table.get(pid) as { output: string }).output += text;
  }
  die(pid: number): void {
    (this.table.get(pid) as { alive: boolean }).alive = false;
  }
}

interface World {
  state: FakeHerdrState;
  io: ScriptedProcs;
  now: number;
  call(argv: string[]): FakeHerdrOutcome;
  /** Evaluates a call to its end, moving time on between rounds, the way the executable polls. */
  finish(argv: string[], between?: (round: number) => void): Extract<FakeHerdrOutcome, { type: 'exit' }>;
}

function world(): World {
  const state = createFakeHerdrState();
  editFakeHerdrState(state).addWorkspace({ cwd: '/ws', label: 'lbl' });
  const w: World = {
    state,
    io: new ScriptedProcs(),
    now: 1_000_000,
    call(argv) {
      const r = core.answer.answer(w.state, argv, w.now, { procs: w.io });
      w.state = r.state;
      return r.outcome;
    },
    finish(argv, between) {
      let o = w.call(argv);
      for (let round = 0; o.type === 'pending'; round += 1) {
        between?.(round);
        w.now += 100;
        const r = core.answer.answer(w.state, argv, w.now, { resume: o.resume, procs: w.io });
        w.state = r.state;
        o = r.outcome;
        if (round > 1_000) throw new Error('never answered');
      }
      if (o.type !== 'exit') throw new Error(o.type);
      return o;
    },
  };
  return w;
}

const START = ['agent', 'start', 'rev', '--kind', 'claude', '--pane', 'w1:p1', '--timeout', '10000', '--', '--session-id', ID];
const json = (o: { stdout: string; stderr: string }): { result?: Record<string, unknown>; error?: { code: string; message: string } } => JSON.parse(o.stdout || o.stderr);

describe('fake herdr with processes: agent start', () => {
  it("spawns the kind's executable in the pane and answers once it printed ready; its reported id becomes agent_session", () => {
    const w = world();
    const out = w.finish(START, (round) => {
      if (round === 2) w.io.print(5_000, `ready\nsession ${ID}\n`);
    });
    expect(w.io.spawned).toHaveLength(1);
    expect(w.io.spawned[0]).toMatchObject({ exe: 'claude', args: ['--session-id', ID], cwd: '/ws', env: { HERDR_PANE_ID: 'w1:p1', HERDR_WORKSPACE_ID: 'w1', HERDR_SESSION: 'default', HERDR_ENV: '1' } });
    expect(json(out).result).toMatchObject({ type: 'agent_started', argv: ['claude', '--session-id', ID], agent: { name: 'rev', agent_status: 'idle', interactive_ready: true } });
    expect((json(out).result?.['agent'] as Record<string, unknown>)['launch_pending']).toBeUndefined();
    const got = json(w.finish(['agent', 'get', 'rev'])).result?.['agent'];
    expect(got).toMatchObject({ agent_session: { source: 'herdr:claude', agent: 'claude', kind: 'id', value: ID } });
    const info = json(w.finish(['pane', 'process-info', '--pane', 'w1:p1'])).result?.['process_info'];
    expect(info).toMatchObject({ foreground_processes: [{ pid: 5_000, name: 'claude' }] });
  });

  it('shows the agent as launch_pending while it starts, and counts it ready after the delay when it never says so', () => {
    const w = world();
    const first = w.call(START);
    expect(first.type).toBe('pending');
    const listed = json(w.finish(['agent', 'list'])).result?.['agents'] as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ name: 'rev', agent_status: 'unknown', launch_pending: true });
    w.now += 1_000;
    expect(json(w.finish(['agent', 'get', 'rev'])).result?.['agent']).toMatchObject({ agent_status: 'idle', interactive_ready: true });
  });

  it('fails with agent_start_failed when the process exits before it is ready, and the pane is free again', () => {
    const w = world();
    const out = w.finish(START, () => w.io.die(5_000));
    expect(json(out).error).toEqual({ code: 'agent_start_failed', message: 'agent process exited before becoming interactive' });
    expect(out.exitCode).toBe(1);
    expect(w.finish(START, () => w.io.print(5_001, 'ready\n')).exitCode).toBe(0);
  });

  it('times out at the deadline and releases the name', () => {
    const w = world();
    w.io.readyAfterMs = 60_000;
    const out = w.finish(START);
    expect(json(out).error).toEqual({ code: 'timeout', message: 'timed out waiting for agent startup' });
    expect(json(w.finish(['agent', 'get', 'rev'])).error?.code).toBe('agent_not_found');
  });

  it('reports a spawn failure; without an executable to run (simulate) the agent is simulated as before', () => {
    const w = world();
    w.io.mode = 'fail';
    const failed = w.finish(START);
    expect(json(failed).error).toEqual({ code: 'agent_start_failed', message: 'agent process exited before becoming interactive: claude: not found on PATH' });
    w.io.mode = 'simulate';
    const sim = w.finish(START);
    expect(json(sim).result).toMatchObject({ agent: { name: 'rev', interactive_ready: true, agent_status: 'idle' } });
    expect(w.io.table.size).toBe(0);
  });
});

describe('fake herdr with processes: liveness and exit', () => {
  function running(): World {
    const w = world();
    w.finish(START, () => w.io.print(5_000, `ready\nsession ${ID}\n`));
    return w;
  }

  it('drops an agent whose process died, on the very next call of any kind', () => {
    const w = running();
    w.io.die(5_000);
    expect(json(w.finish(['agent', 'list'])).result?.['agents']).toEqual([]);
    expect(json(w.finish(['agent', 'get', 'rev'])).error?.code).toBe('agent_not_found');
  });

  it('/exit then Enter sends SIGTERM; the agent stays until its process is gone', () => {
    const w = running();
    w.finish(['pane', 'send-text', 'w1:p1', '/exit']);
    expect(w.io.signals).toEqual([]);
    w.finish(['pane', 'send-keys', 'w1:p1', 'enter']);
    expect(w.io.signals).toEqual([[5_000, 'SIGTERM']]);
    expect(json(w.finish(['agent', 'get', 'rev'])).result?.['agent']).toMatchObject({ name: 'rev' });
    w.io.die(5_000);
    expect(json(w.finish(['agent', 'get', 'rev'])).error?.code).toBe('agent_not_found');
  });

  it('only a submitted /exit counts: other text, or text cleared by Ctrl-C, sends nothing', () => {
    const w = running();
    w.finish(['pane', 'send-text', 'w1:p1', '/exi']);
    w.finish(['pane', 'send-keys', 'w1:p1', 'enter']);
    w.finish(['pane', 'send-text', 'w1:p1', '/exit']);
    w.finish(['pane', 'send-keys', 'w1:p1', 'ctrl+c', 'enter']);
    expect(w.io.signals).toEqual([]);
    w.finish(['pane', 'run', 'w1:p1', '/exit']);
    expect(w.io.signals).toEqual([[5_000, 'SIGTERM']]);
  });

  it('agent send-keys and agent prompt submit too', () => {
    const w = running();
    w.finish(['pane', 'send-text', 'w1:p1', '/exit']);
    w.finish(['agent', 'send-keys', 'rev', 'enter']);
    w.finish(['agent', 'prompt', 'rev', '/exit']);
    expect(w.io.signals).toEqual([[5_000, 'SIGTERM'], [5_000, 'SIGTERM']]);
  });

  it('pane close and workspace close SIGKILL the agent process', () => {
    const w = running();
    w.finish(['pane', 'close', 'w1:p1']);
    expect(w.io.signals).toEqual([[5_000, 'SIGKILL']]);
    const v = running();
    v.finish(['workspace', 'close', 'w1']);
    expect(v.io.signals).toEqual([[5_000, 'SIGKILL']]);
  });

  it('a later session line replaces the reported id (a /clear switches conversations)', () => {
    const w = running();
    const next = 'b7800002-0000-4000-8000-000000000002';
    w.io.print(5_000, `session ${next}\n`);
    expect(json(w.finish(['agent', 'get', 'rev'])).result?.['agent']).toMatchObject({ agent_session: { value: next } });
  });
});

describe('simulated agents (no processes)', () => {
  it('the in-process FakeHerdr: /exit then Enter ends the agent at once', async () => {
    const herdr = new FakeHerdr();
    const seeded = herdr.addAgent({ name: 'rev', kind: 'claude' });
    expect((await herdr.paneSendText(seeded.paneId, '/exit')).kind).toBe('ok');
    expect((await herdr.agentGet('rev')).kind).toBe('ok');
    expect((await herdr.paneSendKeys(seeded.paneId, ['enter'])).kind).toBe('ok');
    expect(await herdr.agentGet('rev')).toMatchObject({ kind: 'error', code: 'agent_not_found' });
  });
});
