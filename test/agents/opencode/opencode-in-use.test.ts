// The opencode in-use check on a fake process table: command lines (outside the caller's helper chain), the caller's
// session variables, and holders of the shared database and its sidecars — except the per-user background service.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../src/agents/opencode/opencode-adapter.js';
import type { HomeDiscoveryContext } from '../../../src/agents/types.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import type { FakeProcess } from '../../../src/testing/process/fake-process.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';

const ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const TWIN = 'ses_dd6159fa8ffeNLY5GQCBDIUNLX';
// An empty home (adapters refuse one that does not exist): no OpenCode store in it.
const HOME = mkdtempSync(join(tmpdir(), 'mam-opencode-in-use-'));
afterAll(() => rmSync(HOME, { recursive: true, force: true }));
const DB = `${HOME}/.local/share/opencode/opencode.db`;
const ctx: HomeDiscoveryContext = { workspace: '/nonexistent-ws', home: HOME, env: { HOME, PATH: '' } };
const SELF: FakeProcess = { pid: 50, ppid: 40, argv: ['node', 'mam', 'purge', 'opencode', ID] };

function adapter(procs: FakeProcess[], self: FakeProcess = SELF): { a: OpencodeAdapter; table: FakeProcessTable } {
  const table = new FakeProcessTable(procs, { self });
  return { a: new OpencodeAdapter({ fs: new NodeFileSystem(), proc: table, herdr: new FakeHerdr(), clock: new FakeClock() }), table };
}

describe('command lines', () => {
  it('a process naming the id is a holder; the caller itself and its helper chain are not', async () => {
    const { a } = adapter([{ pid: 40, ppid: 1, argv: ['bash'] }, { pid: 7, ppid: 1, argv: ['opencode', '--session', ID] }]);
    expect(await a.inUseHolders(ID, ctx)).toEqual([{ pid: 7, command: `opencode --session ${ID}`, signal: 'command-line' }]);
  });

  it('the agent session the caller runs in counts when it names the id', async () => {
    const { a } = adapter([{ pid: 30, ppid: 1, argv: ['opencode', '--session', ID] }, { pid: 40, ppid: 30, argv: ['bash'] }]);
    expect((await a.inUseHolders(ID, ctx)).map((h) => h.pid)).toEqual([30]);
  });

  it('ids are compared exactly: a case twin neither matches nor is matched', async () => {
    const { a } = adapter([{ pid: 7, ppid: 1, argv: ['opencode', '--session', ID] }], { pid: 50, ppid: 1, argv: ['node'] });
    expect(await a.conversationInUse(TWIN, ctx)).toBe(false);
    expect(await a.conversationInUse(ID, ctx)).toBe(true);
  });
});

describe("the caller's session variables", () => {
  it('OPENCODE_SESSION_ID naming the id means the purge runs in the session itself', async () => {
    const { a } = adapter([], { pid: 50, ppid: 1, argv: ['node'], env: { OPENCODE_SESSION_ID: ID } });
    expect(await a.inUseHolders(ID, ctx)).toEqual([{ pid: 50, command: 'this process (OPENCODE_SESSION_ID)', signal: 'session-env', detail: 'OPENCODE_SESSION_ID' }]);
    expect(await a.conversationInUse(TWIN, ctx)).toBe(false);
  });
});

describe('holders of the shared database', () => {
  it('any process holding the database or a sidecar counts, with one snapshot and one lsof call', async () => {
    const { a, table } = adapter([{ pid: 7, ppid: 1, argv: ['opencode', '--auto', '--standalone'], openFiles: [`${DB}-wal`] }]);
    const holders = await a.inUseHolders(ID, ctx);
    expect(holders).toEqual([{ pid: 7, command: 'opencode --auto --standalone', signal: 'open-file', detail: `${DB}-wal` }]);
    expect(table.snapshotCalls).toBe(1);
    expect(table.holdersCalls).toBe(1);
  });

  it('the per-user background service (`opencode serve --service`) does not count; a plain `opencode serve` does', async () => {
    const service = { pid: 8, ppid: 1, argv: ['opencode', 'serve', '--service'], openFiles: [DB, `${DB}-wal`, `${DB}-shm`] };
    expect(await adapter([service]).a.conversationInUse(ID, ctx)).toBe(false);
    const serve = { pid: 9, ppid: 1, argv: ['opencode', 'serve'], openFiles: [DB] };
    expect((await adapter([service, serve]).a.inUseHolders(ID, ctx)).map((h) => h.pid)).toEqual([9]);
  });

  it('a holder of an unrelated file does not count', async () => {
    expect(await adapter([{ pid: 7, ppid: 1, argv: ['opencode'], openFiles: [`${HOME}/.local/share/opencode/log/opencode.log`] }]).a.conversationInUse(ID, ctx)).toBe(false);
  });
});

describe('hints', () => {
  it('give the ps command for the id first, then how to see the database holders and their cwd (issue 18)', () => {
    const hints = adapter([]).a.inUseHints(ID, ctx);
    expect(hints[0]).toBe(`ps -axww | grep ${ID}`);
    expect(hints).toHaveLength(2);
  });
});
