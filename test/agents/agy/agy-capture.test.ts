import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import type { SessionRow } from '../../../src/registry/session-row.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import type { FakeProcess } from '../../../src/testing/process/fake-process.js';
import { agyTree, freshId, portsWith, writeAgyCache } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-cap-'));
  home = join(dir, 'home');
  ws = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(ws);
});
afterEach(() => dispose());

const NOW = 1_900_000_000_000;
const EPOCH = NOW / 1000 - 100;
const PANE = 40;

function row(extra: Partial<SessionRow> = {}): SessionRow {
  return { name: 'reviewer-agy-01', status: 'running', agent: 'agy', herdr_session_epoch: EPOCH, pane: { cwd: ws, pid: PANE, cmd: 'agy' }, ...extra };
}

// init ← herdr pane shell (40) ← agy (41) ← its language server (42); an unrelated process (90).
function table(holders: Array<[number, string]>): FakeProcessTable {
  const procs: FakeProcess[] = [
    { pid: 1, argv: ['init'] },
    { pid: PANE, ppid: 1, argv: ['bash'] },
    { pid: 41, ppid: PANE, argv: ['agy'] },
    { pid: 42, ppid: 41, argv: ['language_server'] },
    { pid: 90, ppid: 1, argv: ['sleep', '600'] },
  ];
  for (const [pid, path] of holders) {
    const p = procs.find((x) => x.pid === pid) as FakeProcess;
    p.openFiles = [...(p.openFiles ?? []), path];
  }
  return new FakeProcessTable(procs, { self: { pid: 500, ppid: 1, argv: ['node', 'reconcile'] } });
}

function setup(mtimeMs = NOW) {
  const id = freshId();
  const paths = agyTree(home, id, ['db', 'brain', 'lock'], mtimeMs);
  writeAgyCache(home, { [ws]: id });
  return { id, paths };
}

describe('agy capture: the cache proposes, an open file held by the pane proves', () => {
  it('captures when the pane process holds the presence lock', async () => {
    const { id, paths } = setup();
    const t = table([[PANE, paths.lock]]);
    expect(await new AgyAdapter(portsWith(t)).captureActiveSessionId(row(), { workspace: ws, home: home })).toEqual({ kind: 'captured', id });
    expect(t.holdersCalls).toBe(1);
    expect(t.snapshotCalls).toBe(1);
  });

  it('captures when a descendant of the pane holds the database', async () => {
    const { id, paths } = setup();
    const a = new AgyAdapter(portsWith(table([[42, paths.db]])));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home })).toEqual({ kind: 'captured', id });
  });

  it('takes the pane pid from ctx before the row', async () => {
    const { id, paths } = setup();
    const a = new AgyAdapter(portsWith(table([[90, paths.lock]])));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home, panePid: 90 })).toEqual({ kind: 'captured', id });
  });

  it('is unprovable when only the calling process holds it, even run inside the pane (its own read connection is no proof)', async () => {
    const { id, paths } = setup();
    const procs: FakeProcess[] = [
      { pid: 1, argv: ['init'] },
      { pid: PANE, ppid: 1, argv: ['bash'] },
      { pid: 41, ppid: PANE, argv: ['agy'] },
    ];
    const t = new FakeProcessTable(procs, { self: { pid: 500, ppid: 41, argv: ['node', 'mam'], openFiles: [paths.db] } });
    const a = new AgyAdapter(portsWith(t));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home })).toEqual({ kind: 'none', reason: 'unprovable', candidates: [id] });
  });

  it('is unprovable when only an unrelated process holds it', async () => {
    const { id, paths } = setup();
    const a = new AgyAdapter(portsWith(table([[90, paths.lock]])));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home })).toEqual({ kind: 'none', reason: 'unprovable', candidates: [id] });
  });

  it('is unprovable when nothing holds it, or the row has no pane pid', async () => {
    const { id, paths } = setup();
    expect(await new AgyAdapter(portsWith(table([]))).captureActiveSessionId(row(), { workspace: ws, home: home })).toMatchObject({ reason: 'unprovable' });
    const noPane = row({ pane: { cwd: ws, cmd: 'agy' } });
    const t = table([[PANE, paths.lock]]);
    expect(await new AgyAdapter(portsWith(t)).captureActiveSessionId(noPane, { workspace: ws, home: home })).toEqual({ kind: 'none', reason: 'unprovable', candidates: [id] });
    expect(t.holdersCalls).toBe(0);
  });

  it('is claimed-by-other-row when another row records it, whatever holds it', async () => {
    const { id, paths } = setup();
    const a = new AgyAdapter(portsWith(table([[PANE, paths.lock]])));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home, siblingClaimedIds: [id.toUpperCase()] })).toMatchObject({ kind: 'none', reason: 'claimed-by-other-row' });
  });

  it('is not-newer when the conversation was last active before the session started', async () => {
    const { paths } = setup(NOW - 3_600_000);
    const a = new AgyAdapter(portsWith(table([[PANE, paths.lock]])));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home })).toMatchObject({ kind: 'none', reason: 'not-newer' });
  });

  it('is no-candidate when the cache maps this workspace to nothing', async () => {
    const { paths } = setup();
    writeAgyCache(home, { [join(dir, 'other-ws')]: freshId() });
    const a = new AgyAdapter(portsWith(table([[PANE, paths.lock]])));
    expect(await a.captureActiveSessionId(row(), { workspace: ws, home: home })).toMatchObject({ kind: 'none', reason: 'no-candidate' });
  });
});
