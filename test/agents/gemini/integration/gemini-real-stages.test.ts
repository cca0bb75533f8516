// Gemini CLI 0.61 on the stages the real CLI wrote (test/fixtures/real/gemini): discovery per workspace against each
// stage's EXPECTED.json, resumed conversations counted once, colliding basenames, a complete purge (chat files, the
// session dir, logs.json entries) that leaves the shared files, logs.json kept while a live gemini works in the project,
// the three in-use signals, and agy's store in the same ~/.gemini kept apart.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { AgentAdapter, HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { Ports } from '../../../../src/ports/index.js';
import { PurgeService } from '../../../../src/purge/purge-service.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import type { FakeProcess } from '../../../../src/testing/process/fake-process.js';
import { seedGemini } from '../../../../src/testing/sandbox/seed-gemini.js';
import { materialiseAgyDerived } from '../../../helpers/adapter-agy-derived.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { materializeStage, type RealStage, realStages } from '../../../helpers/real-stage.js';

const ID = { ws: '165710fc-8d90-4736-9043-383cdacc99f5', other: '11e4ad92-39ee-4595-b5fd-fd544433f356', odd: '320c2bbb-47c3-47b0-a2f0-ce59b1c040e8', tui: 'e198fc51-a8b6-4ce3-af3b-0dbf5325827a', resumed: '4f7cf4a8-0d00-4464-b9f8-f202ccd6e3c6' };

let root: string;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ dir: root, dispose } = await makeTempDir('mam-gemini-'));
});
afterEach(() => dispose());

const SELF: FakeProcess = { pid: 100, ppid: 1, argv: ['node', 'mam', 'purge'], env: {} };

function adapterOf(procs: FakeProcess[] = [], self: FakeProcess = SELF): { adapter: AgentAdapter; ports: Ports; table: FakeProcessTable } {
  const table = new FakeProcessTable(procs, { self });
  const ports: Ports = { ...nodePorts({ env: {} }), proc: table };
  return { adapter: getAdapter('gemini', { ports }), ports, table };
}

function ctxOf(s: RealStage, workspace: string): HomeDiscoveryContext {
  return { home: s.home, workspace, env: s.env };
}

const G = (s: RealStage, rel: string): string => s.abs(`.gemini/${rel}`);
const bytesOf = (paths: string[]): string[] => paths.map((p) => readFileSync(p, 'utf8'));

describe('gemini on the real stages', () => {
  it.each(realStages('gemini'))('%s: discover offers exactly the present conversations of each workspace; verify agrees', async (stage) => {
    const s = materializeStage(stage, root);
    const { adapter } = adapterOf();
    const workspaces = [...new Set(s.expected.conversations.map((c) => c.workspace as string))];
    for (const ws of workspaces) {
      const present = s.expected.conversations.filter((c) => c.workspace === ws && c.status === 'present').map((c) => c.id);
      expect((await adapter.discover(ctxOf(s, ws))).sort(), `${stage} ${ws}`).toEqual(present.sort());
      for (const c of s.expected.conversations) {
        expect(await adapter.verifyArtifact(c.id, ctxOf(s, ws)), `${c.id} in ${ws}`).toBe(c.workspace === ws && c.status === 'present');
      }
    }
    expect(await adapter.discover(ctxOf(s, root))).toEqual([]);
    // The stage moved with its paths: each chat file's projectHash is the sha256 of its workspace's new path.
    for (const c of s.expected.conversations.filter((x) => x.transcript != null)) {
      const first = JSON.parse(readFileSync(s.abs(c.transcript as string), 'utf8').split('\n')[0] as string) as { projectHash: string };
      expect(first.projectHash).toBe(createHash('sha256').update(c.workspace as string).digest('hex'));
    }
  });

  it('a resumed conversation (second metadata line, or a second small chat file naming the id) is one conversation, purged whole', async () => {
    const s = materializeStage('gemini/02-after-resume', root);
    const ws = join(root, 'ws-gemini');
    const { adapter } = adapterOf();
    expect(await adapter.discover(ctxOf(s, ws))).toEqual([ID.resumed]);
    const main = G(s, 'tmp/ws-gemini/chats/session-2026-11-30T00-49-4f7cf4a8.jsonl');
    const second = G(s, 'tmp/ws-gemini/chats/session-2026-11-30T00-51-4f7cf4a8.jsonl');
    writeFileSync(second, `${readFileSync(main, 'utf8').split('\n').filter((l) => l.startsWith('{"sessionId"'))[1]}\n`);
    expect(await adapter.discover(ctxOf(s, ws))).toEqual([ID.resumed]);
    const plan = await adapter.planPurge(ID.resumed, ctxOf(s, ws));
    expect(plan.artifacts.map((a) => (a.kind === 'rows' ? a.db : a.path)).sort()).toEqual([main, second].sort());
    await adapter.purgeArtifacts(ID.resumed, ctxOf(s, ws));
    expect([existsSync(main), existsSync(second)]).toEqual([false, false]);
    expect(await adapter.residualArtifacts(ID.resumed, ctxOf(s, ws))).toEqual([]);
  });

  it('colliding basenames map back through .project_root / projects.json; a workspace reached through a link is the same', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const { adapter } = adapterOf();
    expect(await adapter.discover(ctxOf(s, join(root, 'ws-gemini')))).toEqual([ID.ws]);
    expect(await adapter.discover(ctxOf(s, join(root, 'other/ws-gemini')))).toEqual([ID.other]);
    expect(await adapter.discover(ctxOf(s, join(root, 'other2/WS Gemini!')))).toEqual([ID.odd]);
    symlinkSync(join(root, 'other/ws-gemini'), join(root, 'link-ws'));
    expect(await adapter.discover(ctxOf(s, join(root, 'link-ws')))).toEqual([ID.other]);
    // Without .project_root, projects.json alone names the project's workspace.
    writeFileSync(G(s, 'tmp/ws-gemini-1/.project_root'), 'relative/path\n');
    expect(await adapter.discover(ctxOf(s, join(root, 'other/ws-gemini')))).toEqual([ID.other]);
  });

  it('GEMINI_CLI_HOME moves the root to <GEMINI_CLI_HOME>/.gemini; a relative one is refused', async () => {
    const s = materializeStage('gemini/01-one-session', root);
    const moved = join(root, 'moved');
    cpSync(s.abs('.gemini'), join(moved, '.gemini'), { recursive: true });
    const { adapter } = adapterOf();
    const empty = join(root, 'empty-home');
    mkdirSync(empty);
    const ws = join(root, 'ws-gemini');
    expect(await adapter.discover({ home: empty, workspace: ws, env: { GEMINI_CLI_HOME: moved } })).toEqual([ID.resumed]);
    expect(await adapter.discover({ home: s.home, workspace: ws, env: { GEMINI_CLI_HOME: 'rel' } })).toEqual([]);
    const plan = await adapter.planPurge(ID.resumed, { home: s.home, workspace: ws, env: { GEMINI_CLI_HOME: 'rel' } });
    expect(plan.artifacts).toEqual([]);
    expect(plan.refused[0]?.reason).toMatch(/GEMINI_CLI_HOME/);
  });

  it('a chat file vanishing between the listing and the read is skipped', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const table = new FakeProcessTable([], { self: SELF });
    const base = nodePorts({ env: {} });
    const chats = G(s, 'tmp/ws-gemini/chats');
    const fs = new Proxy(base.fs, {
      get(target, key) {
        if (key === 'readdir') {
          return async (p: string) => [...(await target.readdir(p)), ...(p === chats ? [{ name: 'session-2026-11-30T00-59-deadbeef.jsonl', kind: 'file' }] : [])];
        }
        const v = Reflect.get(target, key) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const adapter = getAdapter('gemini', { ports: { ...base, fs, proc: table } });
    expect(await adapter.discover(ctxOf(s, join(root, 'ws-gemini')))).toEqual([ID.ws]);
    const report = await adapter.inspect!(ctxOf(s, join(root, 'ws-gemini')));
    expect(report.problems).toEqual([]);
  });

  it('a purge removes the chat file, the session dir and its logs.json entries, and leaves projects.json, .project_root, *.tmp and the other entries', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const ws = join(root, 'ws-gemini');
    const logs = G(s, 'tmp/ws-gemini/logs.json');
    const others = JSON.parse(readFileSync(logs, 'utf8')) as unknown[];
    const mine = { sessionId: ID.ws, messageId: 0, type: 'user', message: 'auth check', timestamp: '2026-11-30T00:52:39.532Z' };
    writeFileSync(logs, JSON.stringify([others[0], mine, others[1]], null, 2));
    mkdirSync(G(s, `tmp/ws-gemini/${ID.ws}/plans`), { recursive: true });
    writeFileSync(G(s, `tmp/ws-gemini/${ID.ws}/plans/plan.md`), 'x');
    const shared = ['projects.json', 'projects.json.09aeaff0-5bbf-4ae4-9b2d-48eb19eedc8e.tmp', 'projects.json.d818508c-1253-4c42-b67c-4ab81dbca2a0.tmp', 'tmp/ws-gemini/.project_root', 'history/ws-gemini/.project_root'].map((r) => G(s, r));
    const before = bytesOf(shared);
    const { ports } = adapterOf();
    const service = new PurgeService({ ports });
    const plan = await service.plan('gemini', ID.ws, { home: s.home, workspace: ws, env: s.env });
    expect(plan.artifacts).toContainEqual({ kind: 'rows', db: logs, table: 'entries', column: 'sessionId', count: 1 });
    const result = await service.purge('gemini', ID.ws, { home: s.home, workspace: ws, env: s.env });
    expect(result).toMatchObject({ kind: 'purged', residual: [] });
    expect(existsSync(G(s, 'tmp/ws-gemini/chats/session-2026-11-30T00-52-165710fc.jsonl'))).toBe(false);
    expect(existsSync(G(s, `tmp/ws-gemini/${ID.ws}`))).toBe(false);
    expect(JSON.parse(readFileSync(logs, 'utf8'))).toEqual(others);
    expect(bytesOf(shared)).toEqual(before);
    // The other conversations are untouched.
    const { adapter } = adapterOf();
    expect(await adapter.discover(ctxOf(s, join(root, 'other/ws-gemini')))).toEqual([ID.other]);
    // The TUI session that left only logs.json entries is purged by them.
    expect(await service.purge('gemini', ID.tui, { home: s.home, env: s.env })).toMatchObject({ kind: 'purged', residual: [], mentions: [] });
    expect(JSON.parse(readFileSync(logs, 'utf8'))).toEqual([]);
    expect(bytesOf(shared)).toEqual(before);
  });

  it('a purge scoped to its workspace takes a conversation whose chat file the CLI deleted (--delete-session leaves its logs.json entries); another workspace is refused', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const logs = G(s, 'tmp/ws-gemini/logs.json');
    const { ports } = adapterOf();
    const service = new PurgeService({ ports });
    const elsewhere = await service.purge('gemini', ID.tui, { home: s.home, workspace: join(root, 'other/ws-gemini'), env: s.env });
    expect(elsewhere.kind).toBe('not-in-workspace');
    expect(readFileSync(logs, 'utf8')).toContain(ID.tui);
    const here = await service.purge('gemini', ID.tui, { home: s.home, workspace: join(root, 'ws-gemini'), env: s.env });
    expect(here).toMatchObject({ kind: 'purged', residual: [], mentions: [] });
    expect(readFileSync(logs, 'utf8')).not.toContain(ID.tui);
  });

  it('while a live gemini works in the project, logs.json is left and reported as a mention with the reason', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const ws = join(root, 'ws-gemini');
    const logs = G(s, 'tmp/ws-gemini/logs.json');
    const before = readFileSync(logs, 'utf8');
    const { adapter } = adapterOf([{ pid: 7, ppid: 1, argv: ['node', '/usr/local/bin/gemini'], cwd: ws }]);
    const plan = await adapter.planPurge(ID.tui, ctxOf(s, ws));
    expect(plan.artifacts).toEqual([]);
    expect(plan.mentions).toEqual([{ kind: 'file', path: logs }]);
    expect(plan.notes.join('\n')).toMatch(/live gemini process \(pid 7\)/);
    await adapter.purgeArtifacts(ID.tui, ctxOf(s, ws));
    expect(readFileSync(logs, 'utf8')).toBe(before);
    expect(await adapter.mentions(ID.tui, ctxOf(s, ws))).toEqual([{ kind: 'file', path: logs }]);
    // A gemini in another project does not keep it.
    const elsewhere = adapterOf([{ pid: 7, ppid: 1, argv: ['gemini'], cwd: join(root, 'other/ws-gemini') }]).adapter;
    expect((await elsewhere.planPurge(ID.tui, ctxOf(s, ws))).mentions).toEqual([]);
  });

  it('holders: a gemini command line naming the id, a gemini working in the project, the caller\'s nearest gemini ancestor (GEMINI_CLI=1)', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const ws = join(root, 'ws-gemini');
    const other = join(root, 'other/ws-gemini');
    const ctx = ctxOf(s, ws);
    const signals = async (procs: FakeProcess[], self: FakeProcess = SELF) =>
      (await adapterOf(procs, self).adapter.inUseHolders(ID.ws, ctx)).map((h) => [h.pid, h.signal]);
    expect(await signals([{ pid: 7, ppid: 1, argv: ['node', '/opt/bin/gemini', '--resume', ID.ws], cwd: '/' }])).toEqual([[7, 'command-line']]);
    expect(await signals([{ pid: 8, ppid: 1, argv: ['gemini'], cwd: ws }])).toEqual([[8, 'open-file']]);
    expect(await signals([{ pid: 8, ppid: 1, argv: ['gemini'], cwd: other }, { pid: 9, ppid: 1, argv: ['bash'], cwd: ws }])).toEqual([]);
    // A tool shell of a gemini TUI in the project: the shell gets GEMINI_CLI=1 and no id.
    const tree: FakeProcess[] = [{ pid: 20, ppid: 1, argv: ['node', '/opt/bin/gemini'], cwd: ws }, { pid: 21, ppid: 20, argv: ['bash', '-c', 'mam purge'], cwd: ws }];
    const shell: FakeProcess = { pid: 22, ppid: 21, argv: ['node', 'mam', 'purge'], env: { GEMINI_CLI: '1' }, cwd: ws };
    expect(await signals(tree, shell)).toEqual([[20, 'session-env']]);
    // Through a PurgeService the caller's own session refuses the purge.
    const inside = adapterOf(tree, shell);
    expect(await new PurgeService({ ports: inside.ports }).purge('gemini', ID.ws, { home: s.home, workspace: ws, env: s.env })).toMatchObject({ kind: 'in-use' });
    expect(existsSync(G(s, 'tmp/ws-gemini/chats/session-2026-11-30T00-52-165710fc.jsonl'))).toBe(true);
    // Its gemini works in another project: not a holder of this conversation.
    const away: FakeProcess[] = [{ ...tree[0]!, cwd: other }, tree[1]!];
    expect(await signals(away, shell)).toEqual([]);
  });

  it('inspect reports the store; a whole-JSON chat file is an unknown layout', async () => {
    const s = materializeStage('gemini/04-after-tui', root);
    const { adapter } = adapterOf();
    const ctx = ctxOf(s, join(root, 'ws-gemini'));
    const report = await adapter.inspect!(ctx);
    expect(report).toMatchObject({ agent: 'gemini', presence: 'present', root: s.abs('.gemini'), known: true, counts: { projects: 3, 'chat files': 3, conversations: 3 }, problems: [] });
    writeFileSync(G(s, 'tmp/ws-gemini/chats/session-2026-11-30T00-53-165710fc.json'), JSON.stringify({ sessionId: ID.ws }));
    const odd = await adapter.inspect!(ctx);
    expect(odd.known).toBe(false);
    expect((await adapter.planPurge(ID.ws, ctx)).artifacts).toEqual([]);
  });
});

describe('gemini and agy in the same ~/.gemini', () => {
  it('neither store sees the other\'s conversations, discovery nor purge', async () => {
    const agy = materialiseAgyDerived(root);
    const s = materializeStage('gemini/04-after-tui', root);
    cpSync(s.abs('.gemini'), join(agy.home, '.gemini'), { recursive: true, preserveTimestamps: true });
    const wsA = join(root, 'ws-agy-a');
    const geminiInA = '7a7a7a7a-2222-4333-8444-00007a7a7a7a';
    seedGemini({ agent: 'gemini', home: agy.home, cwd: wsA, id: geminiInA, now: Date.parse('2026-11-30T01:00:00Z'), sqlite: 'checkpointed', prompt: 'hi', env: {} });
    const table = new FakeProcessTable([], { self: SELF });
    const ports: Ports = { ...nodePorts({ env: {} }), proc: table };
    const gemini = getAdapter('gemini', { ports });
    const agyAdapter = getAdapter('agy', { ports });
    const ctx = (workspace: string): HomeDiscoveryContext => ({ home: agy.home, workspace, env: {} });
    expect(await gemini.discover(ctx(wsA))).toEqual([geminiInA]);
    expect(await gemini.discover(ctx(join(root, 'ws-gemini')))).toEqual([ID.ws]);
    const agyIds = await agyAdapter.discover(ctx(wsA));
    expect(agyIds.length).toBeGreaterThan(0);
    expect(agyIds).not.toContain(geminiInA);
    expect(await agyAdapter.discover(ctx(join(root, 'ws-gemini')))).toEqual([]);
    for (const id of agyIds) {
      expect(await gemini.verifyArtifact(id, ctx(wsA))).toBe(false);
      expect((await gemini.planPurge(id, ctx(wsA))).artifacts).toEqual([]);
    }
    expect(await agyAdapter.verifyArtifact(geminiInA, ctx(wsA))).toBe(false);
    expect((await agyAdapter.planPurge(geminiInA, ctx(wsA))).artifacts).toEqual([]);
    const report = await gemini.inspect!(ctx(wsA));
    expect(report.counts['conversations']).toBe(4);
    expect(report.problems).toEqual([]);
  });
});
