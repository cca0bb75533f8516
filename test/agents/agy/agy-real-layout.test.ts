import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem, freshId, portsWith } from '../../helpers/adapter-agy-files.js';
import { agyCliRoot, writeAgyAcp, writeAgyFile, writeAgyRealDb, writeAgySummaries } from '../../helpers/adapter-agy-real-files.js';
import { strs } from '../../helpers/artifact-strings.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let gemini: string;
let ws: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-real-'));
  home = join(dir, 'home');
  gemini = join(home, '.gemini');
  ws = join(dir, 'ws');
  for (const d of [home, ws]) mkdirSync(d);
});
afterEach(() => dispose());

const self = { pid: 500, ppid: 1, argv: ['node', 'mam'] };
const agy = (table = new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self })) => new AgyAdapter(portsWith(table));
const ctx = (extra: Record<string, unknown> = {}) => ({ workspace: ws, home: home, env: {}, ...extra });
const T = 1_900_000_000_000;

describe('agy: older conversations of a workspace are found without the cache', () => {
  it('lists every top-level conversation recording the workspace, newest first, subagents and other workspaces excluded', async () => {
    const [old, mid, recent, child, other] = [freshId(), freshId(), freshId(), freshId(), freshId()];
    writeAgyRealDb(gemini, old, { workspaces: [ws], mtimeMs: T });
    writeAgyRealDb(gemini, mid, { workspaces: [join(dir, 'elsewhere'), ws], mtimeMs: T + 1000 });
    writeAgyRealDb(gemini, recent, { workspaces: [ws], mtimeMs: T + 2000 });
    writeAgyRealDb(gemini, child, { workspaces: [ws], parent: recent, depth: 1, mtimeMs: T + 3000 });
    writeAgyRealDb(gemini, other, { workspaces: [join(dir, 'elsewhere')], mtimeMs: T + 4000 });
    expect(await agy().discover(ctx())).toEqual([recent, mid, old]);
    expect(await agy().discover(ctx({ epoch: (T + 1000) / 1000 }))).toEqual([recent, mid]);
    for (const id of [old, mid, recent]) expect(await agy().verifyArtifact(id, ctx(), 'discover')).toBe(true);
    expect(await agy().verifyArtifact(child, ctx(), 'discover')).toBe(false);
    expect(await agy().verifyArtifact(other, ctx(), 'verify')).toBe(false);
  });
});

describe('agy: GEMINI_HOME and the ACP root', () => {
  it('GEMINI_HOME relocates both roots; nothing under <home>/.gemini is read', async () => {
    const relocated = join(dir, 'gh');
    const id = freshId();
    writeAgyRealDb(relocated, id, { workspaces: [ws] });
    const decoy = freshId();
    writeAgyRealDb(gemini, decoy, { workspaces: [ws] });
    const spy = new SpyFileSystem();
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self }), spy.port));
    const c = ctx({ env: { GEMINI_HOME: relocated } });
    expect(await a.discover(c)).toEqual([id]);
    expect(spy.calls.filter((x) => x.path.startsWith(gemini))).toEqual([]);
    expect(strs(await a.purgeArtifacts(id, c))).toContain(join(agyCliRoot(relocated), 'conversations', `${id}.db`));
    expect(existsSync(join(agyCliRoot(gemini), 'conversations', `${decoy}.db`))).toBe(true);
    // A relative GEMINI_HOME is ignored like an unset one.
    expect(await agy().discover(ctx({ env: { GEMINI_HOME: 'gh' } }))).toEqual([decoy]);
  });

  it('an ACP conversation belongs to its .meta cwd; its purge removes the ACP database and then the .meta', async () => {
    const id = freshId();
    const acp = writeAgyAcp(gemini, id, ws);
    const none = freshId();
    writeAgyAcp(gemini, none, null);
    expect(await agy().discover(ctx())).toEqual([id]);
    expect(await agy().verifyArtifact(id, ctx({ workspace: dir }), 'verify')).toBe(false);
    const purged = strs(await agy().purgeArtifacts(id, ctx()));
    expect(purged).toEqual([acp.db, acp.meta]);
    expect(strs(await agy().residualArtifacts(id, ctx()))).toEqual([]);
  });

  it('an ACP copy beside the CLI conversation goes with it, and a holder of the ACP database counts as in use', async () => {
    const id = freshId();
    writeAgyRealDb(gemini, id, { workspaces: [ws] });
    const acp = writeAgyAcp(gemini, id, ws);
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 7, ppid: 1, argv: ['python3', 'acp'], openFiles: [acp.db] }], { self });
    expect(await agy(table).conversationInUse(id, ctx())).toBe(true);
    table.kill(7);
    strs(await agy(table).purgeArtifacts(id, ctx()));
    expect([existsSync(acp.db), existsSync(acp.meta)]).toEqual([false, false]);
  });
});

describe('agy: every store of a conversation is its artifact', () => {
  it('agy 1.0.x kept only conversations/<id>.pb: purged, not refused', async () => {
    const id = freshId();
    const pb = writeAgyFile(gemini, `conversations/${id}.pb`);
    const brain = writeAgyFile(gemini, `brain/${id}/messages/read.json`, '{}');
    expect(await agy().hasArtifacts(id, ctx())).toBe(true);
    expect(strs(await agy().residualArtifacts(id, ctx()))).toEqual([join(brain, '../..'), pb]);
    expect(strs(await agy().purgeArtifacts(id, ctx()))).toEqual([join(brain, '../..'), pb]);
    expect(await agy().hasArtifacts(id, ctx())).toBe(false);
  });

  it('implicit/<id>.pb and annotations/<id>.pbtxt are purged with the database, the lock last', async () => {
    const id = freshId();
    const db = writeAgyRealDb(gemini, id, { workspaces: [ws] });
    const implicit = writeAgyFile(gemini, `implicit/${id}.pb`);
    const ann = writeAgyFile(gemini, `annotations/${id}.pbtxt`);
    const lock = writeAgyFile(gemini, `presence/${id}.lock`, '');
    expect(strs(await agy().purgeArtifacts(id, ctx()))).toEqual([ann, implicit, db, lock]);
  });

  it('subagents at any depth go first with their summaries rows; a record cycle ends; an in-use subagent stays with its subtree', async () => {
    const [root, kid, grandkid, busy, busyKid] = [freshId(), freshId(), freshId(), freshId(), freshId()];
    writeAgyRealDb(gemini, root, { workspaces: [ws], parent: grandkid });
    writeAgyRealDb(gemini, kid, { workspaces: [ws], parent: root, depth: 1 });
    writeAgyRealDb(gemini, grandkid, { workspaces: [ws], parent: kid, depth: 2 });
    const busyDb = writeAgyRealDb(gemini, busy, { workspaces: [ws], parent: root, depth: 1 });
    const busyKidDb = writeAgyRealDb(gemini, busyKid, { workspaces: [ws], parent: busy, depth: 2 });
    const summaries = writeAgySummaries(gemini, [root, kid, grandkid, busy, busyKid]);
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 8, ppid: 1, argv: ['agy', '--conversation', busy] }], { self });
    const purged = strs(await agy(table).purgeArtifacts(root, ctx()));
    const dbOf = (i: string) => join(agyCliRoot(gemini), 'conversations', `${i}.db`);
    expect(purged[0]).toBe(`${summaries} (conversation_summaries.conversation_id: 3 rows)`);
    expect(purged.slice(1)).toEqual([dbOf(grandkid), dbOf(kid), dbOf(root)]);
    expect([existsSync(busyDb), existsSync(busyKidDb)]).toEqual([true, true]);
  });
});

describe('agy capture on the real layout', () => {
  it('pins the one conversation newer than the session whose database the pane holds; an older one and a subagent do not compete', async () => {
    const now = Date.now();
    const [older, newer, child] = [freshId(), freshId(), freshId()];
    writeAgyRealDb(gemini, older, { workspaces: [ws], mtimeMs: now - 3_600_000 });
    const db = writeAgyRealDb(gemini, newer, { workspaces: [ws], mtimeMs: now });
    writeAgyRealDb(gemini, child, { workspaces: [ws], parent: newer, depth: 1, mtimeMs: now });
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 40, ppid: 1, argv: ['bash'] }, { pid: 41, ppid: 40, argv: ['agy'], openFiles: [db] }], { self });
    const row = { name: 'r-agy', status: 'running' as const, agent: 'agy' as const, herdr_session_epoch: Math.floor(now / 1000) - 100, pane: { cwd: ws, pid: 40 } };
    expect(await agy(table).captureActiveSessionId(row, ctx())).toEqual({ kind: 'captured', id: newer });
    // Claimed by another row, the newer one is out; the older one left is not newer than the session.
    expect(await agy(table).captureActiveSessionId(row, ctx({ siblingClaimedIds: [newer] }))).toMatchObject({ kind: 'none', reason: 'not-newer' });
  });
});

