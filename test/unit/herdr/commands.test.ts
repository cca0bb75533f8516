import { describe, expect, it } from 'vitest';
import { isPortError, MamError } from '../../../src/errors.js';
import { herdrCommands as cmd, withSession } from '../../../src/herdr/commands.js';

describe('herdr argv (CONTRACT.md §2)', () => {
  it('status server asks for JSON', () => {
    expect(cmd.serverStatus().argv).toEqual(['status', 'server', '--json']);
  });

  it('workspace create passes cwd, label and every env pair', () => {
    expect(cmd.workspaceCreate({ cwd: '/repo', label: 'r', env: { A: '1', B: 'x=y' } }).argv).toEqual([
      'workspace', 'create', '--cwd', '/repo', '--label', 'r', '--env', 'A=1', '--env', 'B=x=y',
    ]);
    expect(cmd.workspaceCreate({}).argv).toEqual(['workspace', 'create']);
  });

  it('pane commands', () => {
    expect(cmd.paneList().argv).toEqual(['pane', 'list']);
    expect(cmd.paneList({ workspace: 'w1' }).argv).toEqual(['pane', 'list', '--workspace', 'w1']);
    expect(cmd.paneGet('w1:p1').argv).toEqual(['pane', 'get', 'w1:p1']);
    expect(cmd.paneClose('w1:p1').argv).toEqual(['pane', 'close', 'w1:p1']);
    expect(cmd.paneRead('w1:p1', { source: 'recent-unwrapped', lines: 5 }).argv).toEqual(['pane', 'read', 'w1:p1', '--source', 'recent-unwrapped', '--lines', '5']);
    expect(cmd.paneSendText('w1:p1', 'a b').argv).toEqual(['pane', 'send-text', 'w1:p1', 'a b']);
    expect(cmd.paneSendKeys('w1:p1', ['ctrl+c', 'enter']).argv).toEqual(['pane', 'send-keys', 'w1:p1', 'ctrl+c', 'enter']);
  });

  it('pane process-info names the pane with --pane, never as a positional', () => {
    expect(cmd.paneProcessInfo('w2X:p1').argv).toEqual(['pane', 'process-info', '--pane', 'w2X:p1']);
  });

  it('agent wait repeats --until for every status and gives --timeout in ms', () => {
    expect(cmd.agentWait('sess', { until: ['idle', 'working'], timeoutMs: 15000 }).argv).toEqual([
      'agent', 'wait', 'sess', '--until', 'idle', '--until', 'working', '--timeout', '15000',
    ]);
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('agent wait refuses timeoutMs %s (herdr would wait forever or fail)', (timeoutMs) => {
    let caught: unknown;
    try {
      cmd.agentWait('a', { until: ['idle'], timeoutMs });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MamError);
    expect((caught as MamError).code).toBe('HERDR_INVALID_ARGUMENT');
    expect(isPortError(caught)).toBe(false);
  });

  it('agent wait refuses an empty until set (herdr would silently use idle/done/blocked)', () => {
    expect(() => cmd.agentWait('a', { until: [], timeoutMs: 10 })).toThrow(/until/);
  });

  it('agent prompt puts the text as one element right after the target, then the flags', () => {
    expect(cmd.agentPrompt('rev', '--wait is literal text', { wait: true, until: ['idle', 'blocked'], timeoutMs: 9000 }).argv).toEqual([
      'agent', 'prompt', 'rev', '--wait is literal text', '--wait', '--until', 'idle', '--until', 'blocked', '--timeout', '9000',
    ]);
    expect(cmd.agentPrompt('rev', 'hi').argv).toEqual(['agent', 'prompt', 'rev', 'hi']);
  });

  it('agent start: name, --kind, --pane, optional --timeout, then -- and the args', () => {
    expect(cmd.agentStart('rev', { kind: 'claude', pane: 'w1:p1', timeoutMs: 60000, argv: ['--resume', 'x'] }).argv).toEqual([
      'agent', 'start', 'rev', '--kind', 'claude', '--pane', 'w1:p1', '--timeout', '60000', '--', '--resume', 'x',
    ]);
    expect(cmd.agentStart('rev', { kind: 'codex', pane: 'w1:p1' }).argv).toEqual(['agent', 'start', 'rev', '--kind', 'codex', '--pane', 'w1:p1']);
  });

  it('agent list/get/read/send-keys', () => {
    expect(cmd.agentList().argv).toEqual(['agent', 'list']);
    expect(cmd.agentGet('rev').argv).toEqual(['agent', 'get', 'rev']);
    expect(cmd.agentRead('rev', { lines: 20 }).argv).toEqual(['agent', 'read', 'rev', '--lines', '20']);
    expect(cmd.agentSendKeys('rev', ['esc']).argv).toEqual(['agent', 'send-keys', 'rev', 'esc']);
  });

  it('--session goes first, only when a session is given', () => {
    expect(withSession(['agent', 'list'], { session: 'work' })).toEqual(['--session', 'work', 'agent', 'list']);
    expect(withSession(['agent', 'list'], {})).toEqual(['agent', 'list']);
    expect(withSession(['agent', 'list'])).toEqual(['agent', 'list']);
  });
});
