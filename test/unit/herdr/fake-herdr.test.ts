import { describe, expect, it } from 'vitest';
import { MamError } from '../../../src/errors.js';
import { FakeHerdr, VirtualClock } from '../../../src/testing/herdr/index.js';

describe('FakeHerdr (in-process)', () => {
  it('records every call with the exact argv the CLI would get', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude' });
    await herdr.agentWait('rev', { until: ['idle'], timeoutMs: 100 }, { session: 'default' });
    await herdr.agentPresence('rev');
    expect(herdr.calls).toEqual([
      { op: 'agentWait', argv: ['--session', 'default', 'agent', 'wait', 'rev', '--until', 'idle', '--timeout', '100'], session: 'default' },
      { op: 'agentPresence', argv: ['agent', 'list'], session: undefined },
    ]);
  });

  it('with its default virtual clock a wait times out at once, and the clock shows the time spent', async () => {
    const clock = new VirtualClock(0);
    const herdr = new FakeHerdr({ clock });
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
    const r = await herdr.agentWait('rev', { until: ['idle'], timeoutMs: 30_000 });
    expect(r).toMatchObject({ kind: 'error', code: 'timeout' });
    expect(clock.now()).toBe(30_000);
  });

  it('a change made right after the call lands before virtual time moves', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
    const waiting = herdr.agentWait('rev', { until: ['idle'], timeoutMs: 30_000 });
    herdr.setStatus('rev', 'idle');
    expect(await waiting).toMatchObject({ kind: 'ok', value: { agent_status: 'idle' } });
  });

  it('a scheduled transition wakes a wait at that virtual time, not at the deadline', async () => {
    const clock = new VirtualClock(0);
    const herdr = new FakeHerdr({ clock });
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
    herdr.schedule('rev', 'idle', { atMs: 7_000 });
    expect(await herdr.agentWait('rev', { until: ['idle'], timeoutMs: 60_000 })).toMatchObject({ kind: 'ok' });
    expect(clock.now()).toBe(7_000);
  });

  it('a herdr timeout shorter than the call deadline wins (sleepers wake in deadline order)', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
    const r = await herdr.agentWait('rev', { until: ['idle'], timeoutMs: 1_000 }, { deadlineMs: 5_000 });
    expect(r).toMatchObject({ kind: 'error', code: 'timeout' });
  });

  it('a call deadline shorter than the herdr timeout is a transport error', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
    const r = await herdr.agentWait('rev', { until: ['idle'], timeoutMs: 60_000 }, { deadlineMs: 2_000 });
    expect(r).toMatchObject({ kind: 'transport_error', exitCode: null, message: expect.stringContaining('2000') });
  });

  it('a hanging call without a deadline never answers', async () => {
    const herdr = new FakeHerdr();
    herdr.failNext('agent list', 'hang');
    const settled = await Promise.race([herdr.agentList().then(() => 'answered'), new Promise((r) => setTimeout(() => r('still waiting'), 50))]);
    expect(settled).toBe('still waiting');
  });

  it('a fault is consumed: the next call answers normally; times repeats it', async () => {
    const herdr = new FakeHerdr();
    herdr.failNext('agent list', { code: 'internal_error', message: 'x' }, { times: 2 });
    expect((await herdr.agentList()).kind).toBe('error');
    expect((await herdr.agentList()).kind).toBe('error');
    expect((await herdr.agentList()).kind).toBe('ok');
  });

  it('a fault scoped to one server leaves the others alone', async () => {
    const herdr = new FakeHerdr();
    herdr.startSession('b');
    herdr.failNext('agent list', 'transport', { session: 'b' });
    expect((await herdr.agentList()).kind).toBe('ok');
    expect((await herdr.agentList({ session: 'b' })).kind).toBe('transport_error');
  });

  it('prompt queues working then idle by default, so prompt --wait sees the agent work', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'idle' });
    const r = await herdr.agentPrompt('rev', 'go', { wait: true, timeoutMs: 10_000 });
    expect(r).toMatchObject({ kind: 'ok', value: { agent_status: 'idle' } });
    herdr.onPrompt('rev', ['working', 'blocked']);
    expect(await herdr.agentPrompt('rev', 'go', { wait: true, until: ['blocked'], timeoutMs: 10_000 })).toMatchObject({ kind: 'ok', value: { agent_status: 'blocked' } });
  });

  it('prompt --wait to an agent that never reacts is agent_prompt_stalled', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'idle' });
    herdr.onPrompt('rev', []);
    expect(await herdr.agentPrompt('rev', 'go', { wait: true, timeoutMs: 60_000 })).toMatchObject({ kind: 'error', code: 'agent_prompt_stalled' });
  });

  it('an agent exiting while a wait is pending ends it with agent_not_running', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
    const waiting = herdr.agentWait('rev', { until: ['idle'], timeoutMs: 60_000 });
    herdr.exitAgent('rev');
    expect(await waiting).toMatchObject({ kind: 'error', code: 'agent_not_running' });
    expect(await herdr.agentPresence('rev')).toBe('absent');
  });

  it('HERDR_SESSION in its env picks the server when no session is given', async () => {
    const herdr = new FakeHerdr({ env: { HERDR_SESSION: 'b' } });
    herdr.startSession('b');
    herdr.addAgent({ session: 'b', name: 'rev', kind: 'claude' });
    expect(await herdr.agentPresence('rev')).toBe('present');
    expect(await herdr.agentPresence('rev', { session: 'default' })).toBe('absent');
  });

  it('a stopped server forgets its agents and answers server_not_running', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude' });
    herdr.stopSession();
    expect(await herdr.agentPresence('rev')).toBe('server_not_running');
    herdr.startSession();
    expect(await herdr.agentPresence('rev')).toBe('absent');
  });

  it('agent_session appears and disappears as reported', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude' });
    const ref = { source: 'herdr:claude', agent: 'claude', kind: 'id' as const, value: 'abc' };
    herdr.setAgentSession('rev', ref);
    expect(await herdr.agentGet('rev')).toMatchObject({ kind: 'ok', value: { agent_session: ref } });
    herdr.setAgentSession('rev', null);
    const r = await herdr.agentGet('rev');
    expect(r.kind === 'ok' && 'agent_session' in r.value).toBe(false);
  });

  it('editing an agent that does not exist is a test bug, reported loudly', () => {
    const herdr = new FakeHerdr();
    expect(() => herdr.setStatus('ghost', 'idle')).toThrow(MamError);
    expect(() => herdr.addAgent({ session: 'nope', name: 'a', kind: 'claude' })).toThrow(/no running server/);
    herdr.addAgent({ name: 'a', kind: 'claude' });
    expect(() => herdr.addAgent({ name: 'a', kind: 'codex' })).toThrow(/already used/);
  });

  it('state is inspectable: what was typed into the pane', async () => {
    const herdr = new FakeHerdr();
    const { paneId } = herdr.addAgent({ name: 'rev', kind: 'claude' });
    await herdr.agentSendKeys('rev', ['ctrl+c']);
    await herdr.agentPrompt('rev', 'hello');
    const pane = herdr.state.sessions['default']?.workspaces[0]?.panes.find((p) => p.pane_id === paneId);
    expect(pane?.input).toEqual([{ kind: 'keys', value: ['ctrl+c'] }, { kind: 'prompt', value: ['hello'] }]);
  });
});

describe('VirtualClock', () => {
  it('wakes sleepers in deadline order, one at a time, and honours abort', async () => {
    const clock = new VirtualClock(100);
    const woke: Array<[string, number]> = [];
    const ac = new AbortController();
    const aborted = clock.sleep(5, ac.signal).catch(() => woke.push(['aborted', clock.now()]));
    const late = clock.sleep(50).then(() => woke.push(['late', clock.now()]));
    const early = clock.sleep(10).then(() => woke.push(['early', clock.now()]));
    ac.abort();
    await Promise.all([aborted, late, early]);
    expect(woke).toEqual([['aborted', 100], ['early', 110], ['late', 150]]);
    expect(clock.monotonic()).toBe(50);
  });
});

describe('FakeHerdr faults by port operation', () => {
  it('accepts a port operation name for a fault', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude' });
    herdr.failNext('agentPresence', 'transport');
    expect(await herdr.agentPresence('rev')).toBe('unknown');
    expect(await herdr.agentPresence('rev')).toBe('present');
  });

  it('a prompt whose text is --session does not pass for a session in the call record', async () => {
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'rev', kind: 'claude' });
    await herdr.agentPrompt('rev', '--session');
    expect(herdr.calls.at(-1)?.session).toBeUndefined();
  });
});
