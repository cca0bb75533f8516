import { describe, expect, it } from 'vitest';
import type { HerdrRawOutput } from '../../../src/herdr/output.js';
import { herdrPresenceOf } from '../../../src/herdr/command-port.js';
import { HerdrCli } from '../../../src/node/herdr-cli.js';
import type { HerdrProcessRunner } from '../../../src/node/herdr-process.js';

interface Seen {
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  timeoutMs: number | undefined;
}

function recorder(answer: HerdrRawOutput | Error): { run: HerdrProcessRunner; seen: Seen[] } {
  const seen: Seen[] = [];
  const run: HerdrProcessRunner = async (file, args, opts) => {
    seen.push({ file, args, env: opts.env, timeoutMs: opts.timeoutMs });
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { run, seen };
}

const list = (names: string[]): HerdrRawOutput => ({
  kind: 'exited',
  exitCode: 0,
  stderr: '',
  stdout: `${JSON.stringify({ id: 'cli:agent:list', result: { agents: names.map((name, i) => ({ name, agent_status: 'idle', terminal_id: `term_${i}`, workspace_id: 'w1', tab_id: 'w1:t1', pane_id: `w1:p${i}`, focused: false, revision: 0, state_change_seq: 0 })), type: 'agent_list' } })}\n`,
});

describe('HerdrCli', () => {
  it('runs `herdr` by default with --session first and the deadline as the process timeout', async () => {
    const { run, seen } = recorder(list([]));
    await new HerdrCli({ run }).agentList({ session: 'work', deadlineMs: 1500 });
    expect(seen[0]).toMatchObject({ file: 'herdr', args: ['--session', 'work', 'agent', 'list'], timeoutMs: 1500 });
  });

  it('runs the given bin and no timeout without a deadline', async () => {
    const { run, seen } = recorder(list([]));
    await new HerdrCli({ bin: '/opt/herdr', run }).agentList();
    expect(seen[0]).toMatchObject({ file: '/opt/herdr', args: ['agent', 'list'], timeoutMs: undefined });
  });

  it('passes the caller environment with overrides; undefined removes a variable', async () => {
    const { run, seen } = recorder(list([]));
    process.env['MAM_HERDR_CLI_TEST'] = 'inherited';
    process.env['MAM_HERDR_CLI_DROP'] = 'dropped';
    try {
      await new HerdrCli({ run, env: { HERDR_SESSION: 'other', MAM_HERDR_CLI_DROP: undefined } }).agentList();
    } finally {
      delete process.env['MAM_HERDR_CLI_TEST'];
      delete process.env['MAM_HERDR_CLI_DROP'];
    }
    expect(seen[0]?.env['MAM_HERDR_CLI_TEST']).toBe('inherited');
    expect(seen[0]?.env['HERDR_SESSION']).toBe('other');
    expect(seen[0]?.env).not.toHaveProperty('MAM_HERDR_CLI_DROP');
  });

  it('a runner that throws is a transport error, never an exception', async () => {
    const { run } = recorder(new Error('EMFILE'));
    await expect(new HerdrCli({ run }).agentGet('a')).resolves.toMatchObject({ kind: 'transport_error', message: expect.stringContaining('EMFILE') });
  });

  it('presence: present / absent from the parsed list', async () => {
    expect(await new HerdrCli({ run: recorder(list(['rev', 'b'])).run }).agentPresence('rev')).toBe('present');
    expect(await new HerdrCli({ run: recorder(list(['b'])).run }).agentPresence('rev')).toBe('absent');
  });

  it('presence: server_not_running is its own answer; any other failure is unknown', async () => {
    const notRunning: HerdrRawOutput = { kind: 'exited', exitCode: 1, stdout: '', stderr: '{"id":"cli:agent:list","error":{"code":"server_not_running","message":"m"}}\n' };
    const otherError: HerdrRawOutput = { kind: 'exited', exitCode: 1, stdout: '', stderr: '{"error":{"code":"internal_error","message":"m"},"id":"cli:agent:list"}\n' };
    expect(await new HerdrCli({ run: recorder(notRunning).run }).agentPresence('rev')).toBe('server_not_running');
    expect(await new HerdrCli({ run: recorder(otherError).run }).agentPresence('rev')).toBe('unknown');
    expect(await new HerdrCli({ run: recorder({ kind: 'exited', exitCode: 0, stdout: 'garbage', stderr: '' }).run }).agentPresence('rev')).toBe('unknown');
    expect(await new HerdrCli({ run: recorder({ kind: 'timed_out', afterMs: 5, stdout: '', stderr: '' }).run }).agentPresence('rev')).toBe('unknown');
    expect(await new HerdrCli({ run: recorder({ kind: 'exited', exitCode: 2, stdout: '', stderr: 'usage' }).run }).agentPresence('rev')).toBe('unknown');
  });

  it('agentWait with a bad timeout rejects before anything runs', async () => {
    const { run, seen } = recorder(list([]));
    await expect(new HerdrCli({ run }).agentWait('a', { until: ['idle'], timeoutMs: 0 })).rejects.toMatchObject({ code: 'HERDR_INVALID_ARGUMENT' });
    expect(seen).toHaveLength(0);
  });
});

describe('herdrPresenceOf', () => {
  it('matches the name exactly, not a pane id or a prefix', () => {
    const ok = { kind: 'ok' as const, value: [{ name: 'reviewer-2', pane_id: 'rev' } as never] };
    expect(herdrPresenceOf(ok, 'rev')).toBe('absent');
    expect(herdrPresenceOf(ok, 'reviewer-2')).toBe('present');
  });
});

describe('a call with no time left', () => {
  it.each([0, -5, Number.NaN])('deadlineMs %s asks herdr nothing and answers a transport error', async (deadlineMs) => {
    const { run, seen } = recorder(list(['rev']));
    const cli = new HerdrCli({ run });
    expect(await cli.agentList({ deadlineMs })).toMatchObject({ kind: 'transport_error', exitCode: null });
    expect(await cli.agentPresence('rev', { deadlineMs })).toBe('unknown');
    expect(seen).toHaveLength(0);
  });
});
