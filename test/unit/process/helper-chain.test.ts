import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../src/ports/process.js';
import { helperChain } from '../../../src/process/index.js';
import { FakeProcessTable, type FakeProcess } from '../../../src/testing/process/index.js';

const ID = '5f0c7a4e-8f2b-4c1d-9e3a-1b2c3d4e5f60';

async function snapshotOf(procs: FakeProcess[], self: FakeProcess): Promise<{ snap: ProcessInfo[]; self: number }> {
  const table = new FakeProcessTable(procs, { self });
  return { snap: await table.snapshot(), self: table.selfPid() };
}

describe('helperChain', () => {
  const tree: FakeProcess[] = [
    { pid: 1, argv: ['/sbin/init'] },
    { pid: 100, ppid: 1, argv: ['tmux'] },
    { pid: 200, ppid: 100, argv: ['/usr/local/bin/claude', '--session-id', ID] },
    { pid: 300, ppid: 200, argv: ['/bin/bash', '-c', `mam purge auto ${ID}`] },
    { pid: 400, ppid: 300, argv: ['sh', '/usr/local/bin/mam', 'purge', 'auto', ID] },
  ];

  it('stops below the nearest agent CLI and returns it', async () => {
    const { snap, self } = await snapshotOf(tree, { pid: 500, ppid: 400, argv: ['node', 'mam.js', 'purge', 'auto', ID] });
    const { chain, agentAncestor } = helperChain(snap, self);
    expect(chain).toEqual([500, 400, 300]);
    expect(agentAncestor?.pid).toBe(200);
  });

  it('without an agent ancestor, walks to pid 1 included and stops', async () => {
    const { snap, self } = await snapshotOf(tree.filter((p) => p.pid !== 200).map((p) => (p.pid === 300 ? { ...p, ppid: 100 } : p)), {
      pid: 500,
      ppid: 400,
      argv: ['node'],
    });
    expect(helperChain(snap, self)).toEqual({ chain: [500, 400, 300, 100, 1], agentAncestor: null });
  });

  it('finds an agent CLI running as pid 1 (a container)', async () => {
    const { snap, self } = await snapshotOf([{ pid: 1, argv: ['node', '/usr/local/bin/claude', '-r', ID] }, { pid: 7, ppid: 1, argv: ['bash'] }], {
      pid: 8,
      ppid: 7,
      argv: ['node'],
    });
    expect(helperChain(snap, self)).toMatchObject({ chain: [8, 7], agentAncestor: { pid: 1 } });
  });

  it('never counts the caller itself as its agent ancestor', async () => {
    const { snap, self } = await snapshotOf([{ pid: 2, argv: ['bash'] }], { pid: 3, ppid: 2, argv: ['claude', '-r', ID] });
    expect(helperChain(snap, self)).toEqual({ chain: [3, 2], agentAncestor: null });
  });

  it('stops at a parent missing from the snapshot, and at a caller missing from it', () => {
    expect(helperChain([{ pid: 9, ppid: 8, command: 'x', comm: 'x', startedAtMs: null }], 9)).toEqual({ chain: [9], agentAncestor: null });
    expect(helperChain([], 9)).toEqual({ chain: [9], agentAncestor: null });
  });

  it('terminates on a ppid cycle', async () => {
    const { snap, self } = await snapshotOf([{ pid: 20, ppid: 30, argv: ['a'] }, { pid: 30, ppid: 20, argv: ['b'] }], { pid: 10, ppid: 20, argv: ['c'] });
    expect(helperChain(snap, self)).toEqual({ chain: [10, 20, 30], agentAncestor: null });
  });
});
