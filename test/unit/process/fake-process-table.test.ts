import { describe, expect, it } from 'vitest';
import { isPortError } from '../../../src/errors.js';
import type { RunResult } from '../../../src/ports/process.js';
import { FakeProcessTable } from '../../../src/testing/process/index.js';

const ok = (command: string): RunResult => ({ command, exitCode: 0, signal: null, stdout: 'done', stderr: '', durationMs: 1, timedOut: false, failed: false });

describe('FakeProcessTable', () => {
  it('adds self to the table and answers selfPid and env from it', async () => {
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self: { pid: 42, ppid: 1, argv: ['node', 'mam'], env: { CLAUDE_CODE_SESSION_ID: 'abc' } } });
    expect(table.selfPid()).toBe(42);
    expect(table.env()).toEqual({ CLAUDE_CODE_SESSION_ID: 'abc' });
    expect((await table.lookup(42))?.command).toBe('node mam');
  });

  it('invents a self with a free pid when none is given', async () => {
    const table = new FakeProcessTable([{ pid: 7, argv: ['a'] }]);
    expect(table.selfPid()).toBe(8);
    expect(table.env()).toEqual({});
    expect(await table.lookup(8)).not.toBeNull();
  });

  it('derives ppid, comm, command, start and state defaults', async () => {
    const table = new FakeProcessTable([{ pid: 3, argv: ['/usr/local/bin/claude', '-r', 'x'] }, { pid: 4, argv: [], comm: 'kworker/0:1' }]);
    expect(await table.lookup(3)).toEqual({ pid: 3, ppid: 0, startedAtMs: null, argv: ['/usr/local/bin/claude', '-r', 'x'], command: '/usr/local/bin/claude -r x', comm: 'claude', state: 'sleeping' });
    expect(await table.lookup(4)).toEqual({ pid: 4, ppid: 0, startedAtMs: null, command: '[kworker/0:1]', comm: 'kworker/0:1', state: 'sleeping' });
  });

  it('snapshot returns copies and counts calls; the seed literals are copied too', async () => {
    const seed = { pid: 3, argv: ['x', 'y'], openFiles: ['/a'] };
    const table = new FakeProcessTable([seed]);
    seed.argv.push('z');
    seed.openFiles.push('/b');
    const snap = await table.snapshot();
    snap[0]?.argv?.push('mutated');
    expect((await table.snapshot())[0]?.argv).toEqual(['x', 'y']);
    expect(await table.holders(['/b'])).toEqual([]);
    expect(table.snapshotCalls).toBe(2);
  });

  it('kill, open and close change what lookup and holders answer', async () => {
    const table = new FakeProcessTable([{ pid: 10, argv: ['agy'] }, { pid: 11, argv: ['node'] }]);
    table.open(10, '/h/presence/x.lock');
    table.open(11, '/h//presence/./x.lock');
    expect(await table.holders(['/h/presence/x.lock', '/h/missing'])).toEqual([
      { pid: 10, command: 'agy', path: '/h/presence/x.lock' },
      { pid: 11, command: 'node', path: '/h/presence/x.lock' },
    ]);
    table.close(11, '/h/presence/x.lock');
    expect(table.kill(10)).toBe(true);
    expect(table.kill(10)).toBe(false);
    expect(await table.holders(['/h/presence/x.lock'])).toEqual([]);
    expect(await table.lookup(10)).toBeNull();
    expect(table.holdersCalls).toBe(2);
    expect(() => table.open(99, '/x')).toThrow(/no process 99/);
  });

  it('normalises asked and open paths alike', async () => {
    const table = new FakeProcessTable([{ pid: 5, argv: ['x'], openFiles: ['/a/b/../c/'] }]);
    expect((await table.holders(['/a/c'])).map((h) => h.path)).toEqual(['/a/c']);
    expect(await table.holders(['/a/b'])).toEqual([]);
  });

  it('run rejects with CommandNotFound without onRun, and records every call', async () => {
    const table = new FakeProcessTable([]);
    const err = await table.run('opencode', ['session', 'delete', 'ses_1']).catch((e: unknown) => e);
    expect(isPortError(err, 'CommandNotFound')).toBe(true);
    expect(err).toMatchObject({ op: 'proc.run', command: 'opencode session delete ses_1' });
    expect(table.runs).toEqual([{ file: 'opencode', args: ['session', 'delete', 'ses_1'], opts: {} }]);
  });

  it('run delegates to onRun', async () => {
    const table = new FakeProcessTable([], { onRun: (file, args) => ok([file, ...args].join(' ')) });
    const r = await table.run('opencode', ['session', 'delete', 'ses_1'], { env: { HOME: '/h' } });
    expect(r.stdout).toBe('done');
    expect(table.runs[0]?.opts).toEqual({ env: { HOME: '/h' } });
  });
});
