import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../src/agents/grok/grok-adapter.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import type { FakeProcess } from '../../../src/testing/process/fake-process.js';
import { portsWith } from '../../helpers/adapter-agy-files.js';
import { GROK_IDS, type GrokStage, materializeGrokStage } from '../../helpers/adapter-grok-stage.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let st: GrokStage;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-use-'));
  st = materializeGrokStage(dir);
});
afterEach(() => dispose());

const { a1, a2, c1, b1 } = GROK_IDS;
const OPENED = '2026-09-01T12:00:00.123456Z';
const openedMs = Date.parse(OPENED);
const init: FakeProcess = { pid: 1, argv: ['init'] };
const ctx = () => ({ workspace: st.wsA, home: st.home, env: {} });
const grok = (t: FakeProcessTable) => new GrokAdapter(portsWith(t));

function active(entries: Array<{ id: string; pid: number; opened?: string }>): void {
  const list = entries.map((e) => ({ session_id: e.id, pid: e.pid, cwd: st.wsA, opened_at: e.opened ?? OPENED }));
  writeFileSync(join(st.grok, 'active_sessions.json'), JSON.stringify(list, null, 2));
}

describe('grok in use: active_sessions.json', () => {
  it.each([
    ['alive, started before opened_at', { startedAtMs: openedMs - 60_000 }, true],
    ['alive, started within the ps second of opened_at', { startedAtMs: openedMs + 1_000 }, true],
    ['alive, start unknown (cannot tell: live)', {}, true],
    ['a later process under a reused pid', { startedAtMs: openedMs + 3_600_000 }, false],
    ['a zombie', { startedAtMs: openedMs - 1, state: 'zombie' as const }, false],
  ])('an entry naming the id whose pid is %s → in use: %s', async (_what, proc, inUse) => {
    active([{ id: a1, pid: 4242 }]);
    const t = new FakeProcessTable([init, { pid: 4242, ppid: 1, argv: ['grok'], ...proc }]);
    const holders = await grok(t).inUseHolders(a1, ctx());
    expect(holders.map((h) => [h.pid, h.signal])).toEqual(inUse ? [[4242, 'pid-file']] : []);
  });

  it('an entry whose pid is gone (the fixture\'s crashed b1) or that names another session is no use', async () => {
    const t = new FakeProcessTable([init, { pid: 4242, ppid: 1, argv: ['grok'], startedAtMs: openedMs - 1 }]);
    expect(await grok(t).conversationInUse(b1, ctx())).toBe(false);
    active([{ id: a2, pid: 4242 }]);
    expect(await grok(t).conversationInUse(a1, ctx())).toBe(false);
  });

  it('a live parent uses its subagent child, and a live child (or a process naming it) keeps its parent', async () => {
    active([{ id: a2, pid: 4242 }]);
    const t = new FakeProcessTable([init, { pid: 4242, ppid: 1, argv: ['grok'], startedAtMs: openedMs - 1 }]);
    expect(await grok(t).conversationInUse(c1, ctx())).toBe(true);
    active([]);
    const named = new FakeProcessTable([init, { pid: 77, ppid: 1, argv: ['grok', '--load', c1.toUpperCase()] }]);
    expect((await grok(named).inUseHolders(a2, ctx())).map((h) => [h.pid, h.signal])).toEqual([[77, 'command-line']]);
  });
});

describe('grok in use: a purge from inside a grok session (tool shells get GROK_AGENT=1, not the id)', () => {
  const chain = (): FakeProcess[] => [
    init,
    { pid: 500, ppid: 1, argv: ['grok'], startedAtMs: openedMs + 3_600_000 }, // its start cannot be matched (clock skew)
    { pid: 510, ppid: 500, argv: ['bash', '-c', 'mam purge grok …'] },
  ];
  const self: FakeProcess = { pid: 520, ppid: 510, argv: ['node', 'mam', 'purge'], env: { GROK_AGENT: '1' } };

  it('the nearest grok ancestor\'s active_sessions.json entry naming the id refuses the purge', async () => {
    active([{ id: a1, pid: 500 }]);
    const holders = await grok(new FakeProcessTable(chain(), { self })).inUseHolders(a1, ctx());
    expect(holders).toEqual([expect.objectContaining({ pid: 500, signal: 'session-env' })]);
  });

  it('the ancestor\'s own session is another one: this id is free', async () => {
    active([{ id: a2, pid: 500 }]);
    expect(await grok(new FakeProcessTable(chain(), { self })).conversationInUse(a1, ctx())).toBe(false);
  });
});

describe('grok in use: open files', () => {
  it('a holder of a session file (the child\'s included) is found in ONE lsof call for all of them', async () => {
    const childUpdates = st.abs(`${st.expected.sessions[c1]?.session_dir ?? ''}/updates.jsonl`);
    const t = new FakeProcessTable([init, { pid: 88, ppid: 1, argv: ['tail', '-f'], openFiles: [childUpdates] }]);
    const holders = await grok(t).inUseHolders(a2, ctx());
    expect(holders).toEqual([expect.objectContaining({ pid: 88, signal: 'open-file', detail: childUpdates })]);
    expect(t.holdersCalls).toBe(1);
  });
});
