import { describe, expect, it } from 'vitest';
import { herdrCommands as cmd } from '../../../src/herdr/commands.js';
import type { HerdrRawOutput } from '../../../src/herdr/output.js';

const exited = (exitCode: number | null, stdout = '', stderr = ''): HerdrRawOutput => ({ kind: 'exited', stdout, stderr, exitCode });
const agent = { agent_status: 'idle', focused: false, pane_id: 'w2X:p1', revision: 57, state_change_seq: 12, tab_id: 'w2X:t1', terminal_id: 'term_1', workspace_id: 'w2X' };
// Every field herdr always prints (protocol schema `required`).
const pane = { pane_id: 'w1:p1', terminal_id: 'term_2', workspace_id: 'w1', tab_id: 'w1:t1', focused: true, agent_status: 'unknown', revision: 0 };
const tab = { tab_id: 'w1:t1', workspace_id: 'w1', number: 1, label: 'main', focused: true, pane_count: 1, agent_status: 'unknown' };
const workspace = { workspace_id: 'w1', number: 1, label: 'w', focused: true, pane_count: 1, tab_count: 1, active_tab_id: 'w1:t1', agent_status: 'unknown' };

describe('reading herdr output', () => {
  it('parses the result envelope whatever the key order (herdr prints keys alphabetically)', () => {
    const named = { ...agent, name: 'rev' };
    const sortedAgent = Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)));
    const sorted = `{"id":"cli:agent:get","result":{"agent":${JSON.stringify(sortedAgent)},"type":"agent_info"}}\n`;
    const idFirst = `{"result":{"type":"agent_info","agent":${JSON.stringify({ name: 'rev', ...agent })}},"id":"cli:agent:get"}`;
    for (const stdout of [sorted, idFirst]) {
      expect(cmd.agentGet('rev').parse(exited(0, stdout))).toEqual({ kind: 'ok', value: named });
    }
  });

  it('takes every field of the answers the port returns', () => {
    const started = JSON.stringify({ id: 'cli:agent:start', result: { agent, argv: ['claude', '--x'], type: 'agent_started' } });
    expect(cmd.agentStart('a', { kind: 'claude', pane: 'p' }).parse(exited(0, started))).toEqual({ kind: 'ok', value: { agent, argv: ['claude', '--x'] } });
    const created = JSON.stringify({ id: 'x', result: { root_pane: pane, tab, type: 'workspace_created', workspace } });
    expect(cmd.workspaceCreate({}).parse(exited(0, created))).toEqual({ kind: 'ok', value: { workspace, tab, root_pane: pane } });
    const info = JSON.stringify({ id: 'x', result: { process_info: { pane_id: 'w1:p1', shell_pid: 7 }, type: 'pane_process_info' } });
    expect(cmd.paneProcessInfo('w1:p1').parse(exited(0, info))).toEqual({ kind: 'ok', value: { pane_id: 'w1:p1', shell_pid: 7 } });
    const list = JSON.stringify({ id: 'x', result: { agents: [agent], type: 'agent_list' } });
    expect(cmd.agentList().parse(exited(0, list))).toEqual({ kind: 'ok', value: [agent] });
    expect(cmd.workspaceClose('w1').parse(exited(0, '{"id":"cli:workspace:close","result":{"type":"ok"}}\n'))).toEqual({ kind: 'ok', value: undefined });
  });

  it('keeps read text exactly, trailing newline included', () => {
    expect(cmd.agentRead('a').parse(exited(0, 'line 1\nline 2\n'))).toEqual({ kind: 'ok', value: 'line 1\nline 2\n' });
    expect(cmd.paneRead('p').parse(exited(0, ''))).toEqual({ kind: 'ok', value: '' });
  });

  it('a silent command succeeds on exit 0 with nothing printed', () => {
    expect(cmd.paneSendKeys('p', ['enter']).parse(exited(0))).toEqual({ kind: 'ok', value: undefined });
  });

  it('reads the server status without an envelope', () => {
    const out = '{"capabilities":null,"compatible":null,"protocol":null,"restart_needed":null,"running":false,"session":"default","socket":"/s","status":"not_running","version":null}\n';
    const r = cmd.serverStatus().parse(exited(0, out));
    expect(r.kind === 'ok' && r.value.running).toBe(false);
    expect(cmd.serverStatus().parse(exited(0, '{"running":"yes"}')).kind).toBe('transport_error');
  });

  it('exit 1 with a JSON error on stderr is herdr\'s error, stdout ignored', () => {
    const stderr = '{"error":{"code":"timeout","message":"timed out waiting for agent status"},"id":"cli:agent:wait"}\n';
    expect(cmd.agentWait('a', { until: ['idle'], timeoutMs: 5 }).parse(exited(1, '', stderr))).toEqual({
      kind: 'error', code: 'timeout', message: 'timed out waiting for agent status', exitCode: 1,
    });
  });

  it('reads server_not_running printed id-first', () => {
    const stderr = '{"id":"cli:agent:list","error":{"code":"server_not_running","message":"no herdr server is running at /x"}}\n';
    expect(cmd.agentList().parse(exited(1, '', stderr))).toMatchObject({ kind: 'error', code: 'server_not_running' });
  });

  it('accepts an error without a message, and a stray line above the JSON', () => {
    expect(cmd.agentGet('a').parse(exited(1, '', '{"error":{"code":"timeout"}}'))).toEqual({ kind: 'error', code: 'timeout', message: '', exitCode: 1 });
    expect(cmd.agentGet('a').parse(exited(1, '', 'warning: x\n{"error":{"code":"agent_not_found","message":"m"},"id":"i"}\n'))).toMatchObject({ code: 'agent_not_found' });
  });

  it('exit 2 is a usage error with herdr\'s text', () => {
    expect(cmd.agentGet('a').parse(exited(2, '', 'usage: herdr agent get <target>\n'))).toEqual({
      kind: 'error', code: 'usage', message: 'usage: herdr agent get <target>', exitCode: 2,
    });
  });

  it.each<[string, HerdrRawOutput]>([
    ['exit 1 without JSON (a Rust io error)', exited(1, '', 'Error: Custom { kind: Other, error: "invalid read source: bogus" }')],
    ['exit 1 with non-error JSON', exited(1, '', '{}')],
    ['exit 0 with garbage', exited(0, 'not json')],
    ['exit 0 with an empty object', exited(0, '{}')],
    ['exit 0 with the wrong result type', exited(0, '{"id":"x","result":{"type":"agent_list","agents":[]}}')],
    ['exit 0 with a result lacking the agent', exited(0, '{"id":"x","result":{"type":"agent_info"}}')],
    ['exit 7', exited(7, '', '{}')],
    ['killed by a signal', { kind: 'exited', stdout: '', stderr: '', exitCode: null, signal: 'SIGKILL' }],
    ['spawn failure', { kind: 'spawn_failed', message: 'spawn herdr ENOENT' }],
    ['deadline', { kind: 'timed_out', afterMs: 50, stdout: '', stderr: '' }],
  ])('%s is a transport error', (_label, raw) => {
    expect(cmd.agentGet('a').parse(raw).kind).toBe('transport_error');
  });

  it('a transport error keeps the exit code and stderr', () => {
    expect(cmd.agentGet('a').parse(exited(7, '', 'boom\n'))).toEqual({ kind: 'transport_error', message: 'herdr exited 7: boom', exitCode: 7, stderr: 'boom\n' });
    expect(cmd.agentGet('a').parse({ kind: 'spawn_failed', message: 'spawn herdr ENOENT' })).toMatchObject({ exitCode: null, message: expect.stringContaining('ENOENT') });
  });
});
