import { describe, expect, it } from 'vitest';
import { helperChain, processesNaming } from '../../../src/process/index.js';
import { FakeProcessTable } from '../../../src/testing/process/index.js';

const ID = '5f0c7a4e-8f2b-4c1d-9e3a-1b2c3d4e5f60';
const COMPACT = ID.replaceAll('-', '');

describe('processesNaming', () => {
  const table = new FakeProcessTable(
    [
      { pid: 1, argv: ['init'] },
      { pid: 10, ppid: 1, argv: ['agy', '--conversation', ID] },
      { pid: 11, ppid: 1, argv: ['python3', '-c', 'x', `--id=${COMPACT}`] },
      { pid: 12, ppid: 1, argv: ['sleep', '60'] },
      { pid: 20, ppid: 10, argv: ['bash', '-c', `mam purge agy ${ID}`] },
    ],
    { self: { pid: 21, ppid: 20, argv: ['node', 'mam', 'purge', 'agy', ID] } },
  );

  it('finds every process naming either spelling, outside the excluded set', async () => {
    const snap = await table.snapshot();
    const { chain } = helperChain(snap, table.selfPid());
    expect(chain).toEqual([21, 20]);
    expect(processesNaming(snap, [ID, COMPACT], new Set(chain)).map((p) => p.pid)).toEqual([10, 11]);
    expect(processesNaming(snap, [ID], new Set(chain)).map((p) => p.pid)).toEqual([10]);
    expect(processesNaming(snap, [ID]).map((p) => p.pid)).toEqual([10, 20, 21]);
  });

  it('matches nothing for no needles or empty needles', async () => {
    const snap = await table.snapshot();
    expect(processesNaming(snap, [])).toEqual([]);
    expect(processesNaming(snap, [''])).toEqual([]);
  });

  it('with caseInsensitive, finds a uuid spelled in any letter case; without, only the spellings given', () => {
    const mixed = '5F0C7A4E-8f2b-4C1D-9e3a-1B2C3D4E5F60';
    const snap = [
      { pid: 5, ppid: 1, startedAtMs: null, command: `gemini --resume ${mixed}`, comm: 'gemini', argv: ['gemini', '--resume', mixed] },
      { pid: 6, ppid: 1, startedAtMs: null, command: `claude -r ${ID.toUpperCase()}`, comm: 'claude' },
      { pid: 7, ppid: 1, startedAtMs: null, command: 'sleep 60', comm: 'sleep', argv: ['sleep', '60'] },
    ];
    expect(processesNaming(snap, [ID, ID.toUpperCase()]).map((p) => p.pid)).toEqual([6]);
    expect(processesNaming(snap, [ID], new Set(), { caseInsensitive: true }).map((p) => p.pid)).toEqual([5, 6]);
    expect(processesNaming(snap, [mixed], new Set([6]), { caseInsensitive: true }).map((p) => p.pid)).toEqual([5]);
    expect(processesNaming(snap, [''], new Set(), { caseInsensitive: true })).toEqual([]);
  });

  it('reads a ps command line when argv is unknown', () => {
    const snap = [{ pid: 5, ppid: 1, startedAtMs: null, command: `claude -r ${ID}`, comm: 'claude' }];
    expect(processesNaming(snap, [ID]).map((p) => p.pid)).toEqual([5]);
  });
});
