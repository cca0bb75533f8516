import { describe, expect, it } from 'vitest';
import { buildFakeHerdrCore } from '../../../src/testing/herdr/fake-herdr-core.js';
import { createFakeHerdrState, editFakeHerdrState } from '../../../src/testing/herdr/fake-herdr-editor.js';
import type { FakeHerdrEnv, FakeHerdrOutcome, FakeHerdrState } from '../../../src/testing/herdr/fake-herdr-types.js';

const core = buildFakeHerdrCore();
type Exit = Extract<FakeHerdrOutcome, { type: 'exit' }>;

function run(state: FakeHerdrState, argv: string[], env: FakeHerdrEnv = {}, now = 1_000): { state: FakeHerdrState; out: Exit } {
  const r = core.answer.answer(state, argv, now, { env });
  if (r.outcome.type !== 'exit') throw new Error(`expected an exit, got ${r.outcome.type}`);
  return { state: r.state, out: r.outcome };
}

function withAgent(): FakeHerdrState {
  const state = createFakeHerdrState({ sessions: ['work'] });
  editFakeHerdrState(state).addAgent({ session: 'work', name: 'rev', kind: 'claude', status: 'idle', cwd: '/repo' });
  return state;
}

describe('fake herdr core: output conventions', () => {
  it('numbers ids in herdr bijective base 32', () => {
    expect([1, 9, 10, 31, 32, 33, 64, 65].map(core.base.encodeId)).toEqual(['1', '9', 'A', 'Z', '0', '11', '10', '21']);
  });

  it('prints one compact line with keys sorted at every depth', () => {
    const { out } = run(withAgent(), ['--session', 'work', 'agent', 'get', 'rev']);
    expect(out.exitCode).toBe(0);
    expect(out.stdout.endsWith('}\n')).toBe(true);
    expect(out.stdout.split('\n')).toHaveLength(2);
    expect(out.stdout.startsWith('{"id":"cli:agent:get","result":{"agent":{"agent":"claude","agent_status":"idle","cwd":"/repo"')).toBe(true);
  });

  it('prints errors alphabetically on stderr, server_not_running id-first', () => {
    const nf = run(withAgent(), ['--session', 'work', 'agent', 'get', 'x']).out;
    expect(nf).toEqual({ type: 'exit', stdout: '', exitCode: 1, stderr: '{"error":{"code":"agent_not_found","message":"agent target x not found"},"id":"cli:agent:get"}\n' });
    const snr = run(withAgent(), ['--session', 'gone', 'agent', 'list']).out;
    expect(snr.stderr.startsWith('{"id":"cli:agent:list","error":{"code":"server_not_running"')).toBe(true);
    expect(snr.stderr).toContain('herdr session attach gone');
    expect(run(createFakeHerdrState({}), ['agent', 'list']).out.exitCode).toBe(0);
  });

  it('status server --json always exits 0', () => {
    const none = { ...createFakeHerdrState(), sessions: {} };
    const { out } = run(none, ['status', 'server', '--json']);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ status: 'not_running', running: false, session: 'default', version: null });
  });
});

describe('fake herdr core: argv', () => {
  it('takes --session anywhere before --, and --session=NAME', () => {
    const state = withAgent();
    expect(run(state, ['agent', '--session', 'work', 'get', 'rev']).out.exitCode).toBe(0);
    expect(run(state, ['agent', 'get', 'rev', '--session=work']).out.exitCode).toBe(0);
    expect(run(state, ['agent', 'get', 'rev']).out.exitCode).toBe(1);
  });

  it('uses HERDR_SESSION when no --session is given, and --session beats it', () => {
    const state = withAgent();
    expect(run(state, ['agent', 'get', 'rev'], { HERDR_SESSION: 'work' }).out.exitCode).toBe(0);
    expect(run(state, ['--session', 'default', 'agent', 'get', 'rev'], { HERDR_SESSION: 'work' }).out.exitCode).toBe(1);
  });

  it('refuses an invalid session name with exit 2', () => {
    expect(run(withAgent(), ['--session', 'a b', 'agent', 'list']).out).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('session name may only contain') });
  });

  it('usage errors exit 2 with plain text, before any server is asked', () => {
    const state = withAgent();
    const cases: Array<[string[], string]> = [
      [['--session', 'gone', 'agent', 'get'], 'usage: herdr agent get <target>'],
      [['agent', 'list', '--x'], 'unknown option: --x'],
      [['agent', 'wait', 'rev', '--until', 'idle,done'], 'invalid --until value: idle,done'],
      [['agent', 'wait', 'rev', '--timeout', 'soon'], 'invalid --timeout value: soon'],
      [['agent', 'prompt', 'rev', 'hi', '--until', 'idle'], '--until and --timeout require --wait'],
      [['agent', 'start', 'rev', '--pane', 'w1:p1'], 'missing required --kind'],
      [['agent', 'start', 'rev', '--kind', 'claude'], 'missing required --pane'],
      [['agent', 'start', 'rev', '--kind', 'vim', '--pane', 'w1:p1'], 'unsupported interactive agent kind: vim'],
      [['pane', 'process-info', 'w1:p1'], 'usage: herdr pane process-info [--pane ID|--current]'],
      [['pane', 'read', 'w1:p1', '--source=bogus'], 'invalid read source: bogus'],
    ];
    for (const [argv, text] of cases) expect(run(state, argv).out, argv.join(' ')).toEqual({ type: 'exit', stdout: '', stderr: `${text}\n`, exitCode: 2 });
  });

  it('a bare group or unknown subcommand prints help and exits 2; --help exits 0', () => {
    expect(run(withAgent(), ['agent']).out.exitCode).toBe(2);
    expect(run(withAgent(), ['agent', 'frobnicate']).out.exitCode).toBe(2);
    expect(run(withAgent(), ['agent', '--help']).out.exitCode).toBe(0);
  });

  it('agent read parse errors are Rust io errors (exit 1, not JSON)', () => {
    const { out } = run(withAgent(), ['--session', 'work', 'agent', 'read', 'rev', '--source', 'bogus']);
    expect(out).toEqual({ type: 'exit', stdout: '', exitCode: 1, stderr: 'Error: Custom { kind: Other, error: "invalid read source: bogus" }\n' });
  });

  it('prompt text is taken literally even when it looks like a flag', () => {
    const { state, out } = run(withAgent(), ['--session', 'work', 'agent', 'prompt', 'rev', '--wait']);
    expect(out.exitCode).toBe(0);
    expect(JSON.parse(out.stdout).result.type).toBe('agent_prompted');
    expect(state.sessions['work']?.workspaces[0]?.panes[0]?.input).toEqual([{ kind: 'prompt', value: ['--wait'] }]);
  });

  it('pane send-text joins its words; silent commands print nothing', () => {
    const state = withAgent();
    const { state: after, out } = run(state, ['--session', 'work', 'pane', 'send-text', 'w1:p1', 'echo', 'hi']);
    expect(out).toEqual({ type: 'exit', stdout: '', stderr: '', exitCode: 0 });
    expect(after.sessions['work']?.workspaces[0]?.panes[0]?.input.at(-1)).toEqual({ kind: 'text', value: ['echo hi'] });
  });

  it('never changes the state it was given', () => {
    const state = withAgent();
    const before = JSON.stringify(state);
    run(state, ['--session', 'work', 'workspace', 'create']);
    run(state, ['--session', 'work', 'agent', 'prompt', 'rev', 'hi']);
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('fake herdr core: agent start checks in herdr order', () => {
  const start = (state: FakeHerdrState, ...rest: string[]): Exit => run(state, ['--session', 'work', 'agent', 'start', ...rest]).out;
  const codeOf = (out: Exit): string => (JSON.parse(out.stderr) as { error: { code: string } }).error.code;

  it('name before everything server-side; taken names list the holder', () => {
    const state = withAgent();
    editFakeHerdrState(state).addWorkspace({ session: 'work' });
    expect(codeOf(start(state, 'Bad', '--kind', 'claude', '--pane', 'w0ZZ:p1', '--timeout', '1'))).toBe('invalid_agent_name');
    expect(codeOf(start(state, 'ok', '--kind', 'claude', '--pane', 'w2:p1', '--', 'a\u0007'))).toBe('invalid_agent_argument');
    const taken = start(state, 'rev', '--kind', 'claude', '--pane', 'w0ZZ:p1');
    expect(JSON.parse(taken.stderr).error.message).toMatch(/^agent name rev is already used; candidates: terminal_id=term_\w+ pane_id=w1:p1 workspace_id=w1 tab_id=w1:t1 cwd=\/repo status=Idle$/);
    expect(codeOf(start(state, 'ok', '--kind', 'claude', '--pane', 'w0ZZ:p1', '--timeout', '1'))).toBe('agent_pane_not_found');
    expect(codeOf(start(state, 'ok', '--kind', 'claude', '--pane', 'w1:p1', '--timeout', '1'))).toBe('agent_pane_busy');
    expect(codeOf(start(state, 'ok', '--kind', 'claude', '--pane', 'w2:p1', '--timeout', '3000'))).toBe('invalid_agent_timeout');
    expect(start(state, 'ok', '--kind', 'claude', '--pane', 'w2:p1', '--timeout', '3001').exitCode).toBe(0);
  });

  it('maps kind aliases and runs the kind executable', () => {
    const state = withAgent();
    editFakeHerdrState(state).addWorkspace({ session: 'work' });
    const out = JSON.parse(start(state, 'cur', '--kind', 'CURSOR-AGENT', '--pane', 'w2:p1', '--', '-p').stdout);
    expect(out.result.agent.agent).toBe('cursor');
    expect(out.result.argv).toEqual(['cursor-agent', '-p']);
  });
});

describe('fake herdr core: waits', () => {
  it('answers pending with the deadline as wake time, then timeout once it passed', () => {
    const state = withAgent();
    editFakeHerdrState(state).setStatus('rev', 'working', { session: 'work' });
    const first = core.answer.answer(state, ['--session', 'work', 'agent', 'wait', 'rev', '--until', 'idle', '--timeout', '500'], 1_000, {});
    expect(first.outcome).toMatchObject({ type: 'pending', wakeAt: 1_500 });
    if (first.outcome.type !== 'pending') return;
    const early = core.answer.answer(first.state, [], 1_499, { resume: first.outcome.resume });
    expect(early.outcome.type).toBe('pending');
    const late = core.answer.answer(first.state, [], 1_500, { resume: first.outcome.resume });
    expect(late.outcome).toMatchObject({ type: 'exit', exitCode: 1, stderr: expect.stringContaining('"code":"timeout"') });
  });

  it('applies a transition scheduled at a time when that time comes', () => {
    const state = withAgent();
    editFakeHerdrState(state).setStatus('rev', 'working', { session: 'work' });
    editFakeHerdrState(state).schedule('rev', 'idle', { atMs: 1_200 }, { session: 'work' });
    const first = core.answer.answer(state, ['--session', 'work', 'agent', 'wait', 'rev', '--until', 'idle', '--timeout', '5000'], 1_000, {});
    expect(first.outcome).toMatchObject({ type: 'pending', wakeAt: 1_200 });
    if (first.outcome.type !== 'pending') return;
    const then = core.answer.answer(first.state, [], 1_200, { resume: first.outcome.resume });
    expect(then.outcome).toMatchObject({ type: 'exit', exitCode: 0 });
  });

  it('applies a transition after a number of calls', () => {
    const state = withAgent();
    editFakeHerdrState(state).schedule('rev', 'blocked', { afterCalls: 2 }, { session: 'work' });
    const get = (s: FakeHerdrState) => {
      core.answer.beginCall(s);
      const r = run(s, ['--session', 'work', 'agent', 'get', 'rev']);
      return { state: r.state, status: JSON.parse(r.out.stdout).result.agent.agent_status as string };
    };
    const one = get(state);
    expect(one.status).toBe('idle');
    expect(get(one.state).status).toBe('blocked');
  });

  it('prompt --wait with an agent that never reacts stalls after 5000 ms (timeout when the caller allowed <= 5000)', () => {
    const state = withAgent();
    editFakeHerdrState(state).onPrompt('rev', [], { session: 'work' });
    const argv = (t: string) => ['--session', 'work', 'agent', 'prompt', 'rev', 'go', '--wait', '--timeout', t];
    for (const [timeout, code] of [['60000', 'agent_prompt_stalled'], ['5000', 'timeout']] as const) {
      const first = core.answer.answer(state, argv(timeout), 0, {});
      expect(first.outcome).toMatchObject({ type: 'pending', wakeAt: 5_000 });
      if (first.outcome.type !== 'pending') return;
      const later = core.answer.answer(first.state, [], 5_000, { resume: first.outcome.resume });
      expect(later.outcome).toMatchObject({ type: 'exit', exitCode: 1, stderr: expect.stringContaining(`"code":"${code}"`) });
    }
  });

  it('a wait is pinned to its terminal: an agent replaced under the same name ends it', () => {
    const state = withAgent();
    editFakeHerdrState(state).setStatus('rev', 'working', { session: 'work' });
    const first = core.answer.answer(state, ['--session', 'work', 'agent', 'wait', 'rev', '--until', 'idle', '--timeout', '5000'], 0, {});
    if (first.outcome.type !== 'pending') throw new Error('expected pending');
    const ed = editFakeHerdrState(first.state);
    ed.exitAgent('rev', { session: 'work' });
    ed.addAgent({ session: 'work', name: 'rev', kind: 'claude', status: 'idle' });
    const after = core.answer.answer(first.state, [], 10, { resume: first.outcome.resume });
    expect(after.outcome).toMatchObject({ type: 'exit', stderr: expect.stringContaining('"code":"agent_not_running"') });
  });
});
