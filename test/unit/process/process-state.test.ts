import { SESSION_ENV_VARS } from '../../../src/ids/agent-names.js';
import { describe, expect, it } from 'vitest';
import { sessionLiveness } from '../../../src/agents/claude/session-liveness.js';
import { findInUseHolders } from '../../../src/agents/common/in-use.js';
import { dispatchPointOf } from '../../../src/loop/run-loop-generation.js';
import { parsePsOutput } from '../../../src/node/ps-parse.js';
import type { ProcessInfo } from '../../../src/ports/process.js';
import { isLiveProcess, processStateOf } from '../../../src/process/process-state.js';
import { FakeHerdr } from '../../../src/testing/herdr/index.js';
import { FakeProcessTable } from '../../../src/testing/process/index.js';

const ID = 'a7800001-0000-4000-8000-000000000001';

describe('processStateOf', () => {
  it('reads the first letter of a /proc or ps state code', () => {
    expect(['R', 'S', 'D', 'I', 'T', 't', 'Z', 'X', 'Ss+', 'S<Ll', 'R+', 'Zs', 'U', 'I<'].map(processStateOf)).toEqual([
      'running', 'sleeping', 'sleeping', 'sleeping', 'stopped', 'stopped', 'zombie', 'dead', 'sleeping', 'sleeping', 'running', 'zombie', 'sleeping', 'sleeping',
    ]);
  });

  it('knows nothing of an empty or foreign code', () => {
    for (const code of ['', ' ', '?', 'q', '1']) expect(processStateOf(code)).toBeUndefined();
  });
});

describe('isLiveProcess', () => {
  const base: ProcessInfo = { pid: 7, ppid: 1, startedAtMs: null, command: 'x', comm: 'x' };
  it('a zombie, a dead process and no process are not live; any other state, or none known, is', () => {
    const gone: (ProcessInfo | null | undefined)[] = [null, undefined, { ...base, state: 'zombie' }, { ...base, state: 'dead' }];
    const live: ProcessInfo[] = [base, { ...base, state: 'running' }, { ...base, state: 'sleeping' }, { ...base, state: 'stopped' }];
    expect(gone.map((p) => isLiveProcess(p))).toEqual([false, false, false, false]);
    expect(live.map((p) => isLiveProcess(p))).toEqual([true, true, true, true]);
  });
});

describe('parsePsOutput with a stat column', () => {
  it('reads the state, and shows a zombie as [comm] whatever ps prints for its args', () => {
    const out = [
      '    1     0 Ss   Mon Nov 30 01:49:07 2026 init            /sbin/init splash',
      ' 4918     1 S+   Mon Nov  3 01:53:49 2026 sleep           sleep 30',
      ' 5003  4918 Z    Mon Nov 30 01:53:52 2026 sleep           [sleep] <defunct>',
      ' 5004  4918 Z    Mon Nov 30 01:53:52 2026 sleep           <defunct>',
      ' 5005  4918 R    Sun Nov 29 01:53:52 2026 node            node x.js',
    ].join('\n');
    expect(parsePsOutput(out).map((r) => [r.pid, r.state, r.comm, r.command, r.argv])).toEqual([
      [1, 'sleeping', 'init', '/sbin/init splash', undefined],
      [4918, 'sleeping', 'sleep', 'sleep 30', undefined],
      [5003, 'zombie', 'sleep', '[sleep]', undefined],
      [5004, 'zombie', 'sleep', '[sleep]', undefined],
      [5005, 'running', 'node', 'node x.js', undefined],
    ]);
    expect(parsePsOutput(out)[4]?.startedAtMs).toBe(Date.UTC(2026, 10, 29, 1, 53, 52));
  });
});

describe('FakeProcessTable.zombify', () => {
  it('keeps the pid in the table as a zombie without argv or open files', async () => {
    const t = new FakeProcessTable([{ pid: 40, ppid: 1, argv: ['claude', '--session-id', ID], openFiles: ['/h/x.jsonl'] }]);
    expect((await t.lookup(40))?.state).toBe('sleeping');
    t.zombify(40);
    expect(await t.lookup(40)).toMatchObject({ pid: 40, ppid: 1, state: 'zombie', command: '[claude]', comm: 'claude' });
    expect((await t.lookup(40))?.argv).toBeUndefined();
    expect(await t.holders(['/h/x.jsonl'])).toEqual([]);
  });
});

describe('a zombie is not live where liveness decides', () => {
  it('a claude session file naming a zombie pid is stale, as a dead pid is', () => {
    const zombie: ProcessInfo = { pid: 4242, ppid: 1, startedAtMs: 1_700_000_000_000, startTicks: 99, command: '[claude]', comm: 'claude', state: 'zombie' };
    const v = sessionLiveness({ pids: [4242], procStart: 99, startedAt: 1_700_000_000_500 }, new Map([[4242, zombie]]), 1_700_000_100_000);
    expect(v).toEqual({ kind: 'stale', reason: 'dead' });
  });

  it('the in-use check counts no zombie, by command line or by held file', async () => {
    const t = new FakeProcessTable([
      { pid: 40, ppid: 1, argv: ['claude', '--resume', ID] },
      { pid: 41, ppid: 1, argv: ['claude'], comm: ID.slice(0, 15) },
    ]);
    t.zombify(40);
    t.zombify(41);
    expect(await findInUseHolders(t, { agent: 'claude', sessionEnvVars: SESSION_ENV_VARS, id: ID, heldPaths: [] })).toEqual([]);
  });

  it('a loop dispatch to a pane whose agent is a zombie has no dispatch point', async () => {
    const proc = new FakeProcessTable([{ pid: 40, ppid: 1, argv: ['codex'] }]);
    const snap = { pane_id: 'w1-1', terminal_id: 't1', agent: 'codex', agent_session: null, state_change_seq: 1 } as never;
    // The fake herdr knows no such pane: the dispatch falls back to the pid it was given.
    const ports = { proc, herdr: new FakeHerdr() } as never;
    expect(await dispatchPointOf(ports, 'default', snap, 40)).toMatchObject({ pid: 40 });
    proc.zombify(40);
    expect(await dispatchPointOf(ports, 'default', snap, 40)).toBeNull();
  });
});
