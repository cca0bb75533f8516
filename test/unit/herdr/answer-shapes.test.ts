import { describe, expect, it } from 'vitest';
import { herdrCommands as cmd } from '../../../src/herdr/commands.js';
import type { HerdrRawOutput } from '../../../src/herdr/output.js';

const exited = (stdout: string): HerdrRawOutput => ({ kind: 'exited', stdout, stderr: '', exitCode: 0 });
const agent = { agent_status: 'idle', focused: false, pane_id: 'w1:p1', revision: 5, state_change_seq: 2, tab_id: 'w1:t1', terminal_id: 'term_1', workspace_id: 'w1' };
const envelope = (type: string, body: Record<string, unknown>): string => JSON.stringify({ id: 'cli:x', result: { type, ...body } });

describe('herdr answers are checked against the protocol schema, however deep', () => {
  it('keeps fields of newer herdr versions, drops a null optional field, and fills the default state_change_seq', () => {
    const { state_change_seq: _seq, ...noSeq } = agent;
    const r = cmd.agentGet('a').parse(exited(envelope('agent_info', { agent: { ...noSeq, name: null, agent_session: null, future_field: { x: 1 } } })));
    expect(r).toEqual({ kind: 'ok', value: { ...noSeq, state_change_seq: 0, future_field: { x: 1 } } });
  });

  it.each([
    ['a missing required field', { ...agent, pane_id: undefined }],
    ['an unknown status', { ...agent, agent_status: 'finished' }],
    ['a negative revision', { ...agent, revision: -1 }],
    ['a fractional state_change_seq', { ...agent, state_change_seq: 1.5 }],
    ['a name of another type', { ...agent, name: 7 }],
    ['an agent_session of the wrong kind', { ...agent, agent_session: { source: 'herdr:claude', agent: 'claude', kind: 'uuid', value: 'x' } }],
    ['an agent_session without its value', { ...agent, agent_session: { source: 'herdr:claude', agent: 'claude', kind: 'id' } }],
  ])('an agent with %s is a transport error, never an ok of the wrong type', (_l, bad) => {
    expect(cmd.agentGet('a').parse(exited(envelope('agent_info', { agent: bad }))).kind).toBe('transport_error');
    expect(cmd.agentList().parse(exited(envelope('agent_list', { agents: [agent, bad] }))).kind).toBe('transport_error');
  });

  it('a process list item without a pid, or an argv with a number, is a transport error', () => {
    const info = (p: Record<string, unknown>) => envelope('pane_process_info', { process_info: { pane_id: 'w1:p1', foreground_processes: [p] } });
    expect(cmd.paneProcessInfo('w1:p1').parse(exited(info({ pid: 3, name: 'claude', argv: ['claude'] }))).kind).toBe('ok');
    expect(cmd.paneProcessInfo('w1:p1').parse(exited(info({ name: 'claude' }))).kind).toBe('transport_error');
    expect(cmd.paneProcessInfo('w1:p1').parse(exited(info({ pid: 3, name: 'claude', argv: ['claude', 2] }))).kind).toBe('transport_error');
  });

  it('a workspace_created whose tab or root pane is an empty object is a transport error', () => {
    const ws = { workspace_id: 'w1', number: 1, label: 'w', focused: true, pane_count: 1, tab_count: 1, active_tab_id: 'w1:t1', agent_status: 'idle' };
    expect(cmd.workspaceCreate({}).parse(exited(envelope('workspace_created', { workspace: ws, tab: {}, root_pane: {} }))).kind).toBe('transport_error');
  });

  it('a server status with a version of another type is a transport error', () => {
    expect(cmd.serverStatus().parse(exited('{"status":"running","running":true,"version":3}')).kind).toBe('transport_error');
    expect(cmd.serverStatus().parse(exited('{"status":"running","running":true,"version":null,"protocol":20}')).kind).toBe('ok');
  });
});
