import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../../src/agents/grok/grok-encode.js';
import { GROK_REMOTE_NOTE } from '../../../../src/agents/grok/grok-remote-note.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { PurgeService } from '../../../../src/purge/purge-service.js';
import { hashTree, portsWith } from '../../../helpers/adapter-agy-files.js';
import { GROK_IDS, type GrokStage, materializeGrokStage, searchState } from '../../../helpers/adapter-grok-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let st: GrokStage;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-stage-'));
  st = materializeGrokStage(dir);
});
afterEach(() => dispose());

const table = () => new FakeProcessTable([{ pid: 1, argv: ['init'] }]);
const ports = () => portsWith(table());
const grok = () => new GrokAdapter(ports());
const ctx = (workspace = st.wsA, env: Record<string, string> = {}) => ({ workspace, home: st.home, env });
const { a1, a2, c1, b1 } = GROK_IDS;

describe('grok on the fixture home built as grok-build writes it (EXPECTED.json)', () => {
  it('discovers each workspace\'s visible sessions newest first (the subagent child skipped), verifies them, changes nothing', async () => {
    const before = hashTree(st.home);
    for (const [ws, want] of Object.entries(st.expected.workspaces)) {
      expect(await grok().discover(ctx(ws))).toEqual(want.visible_sessions_newest_first);
      for (const id of want.visible_sessions_newest_first) expect(await grok().verifyArtifact(id.toUpperCase(), ctx(ws))).toBe(true);
    }
    expect(await grok().verifyArtifact(c1, ctx())).toBe(false); // hidden: a subagent child is no row's conversation
    expect(await grok().verifyArtifact(b1, ctx(st.wsA))).toBe(false); // another workspace's session
    expect(await grok().verifyArtifact(a1, ctx(), 'discover')).toBe(true);
    expect(await grok().verifyArtifact(a1, { ...ctx(), siblingClaimedIds: [a1.toUpperCase()] }, 'discover')).toBe(false);
    for (const id of Object.values(GROK_IDS)) {
      await grok().residualArtifacts(id, ctx());
      await grok().mentions(id, ctx());
      await grok().hasArtifacts(id, ctx());
    }
    expect(hashTree(st.home)).toEqual(before);
  });

  it('keeps only sessions active at or after the epoch (last_active_at)', async () => {
    const a2Active = Date.parse('2026-09-01T11:00:11.123456Z') / 1000;
    expect(await grok().discover({ ...ctx(), epoch: a2Active - 1 })).toEqual([a2]);
    expect(await grok().discover({ ...ctx(), epoch: a2Active + 1 })).toEqual([]);
  });

  it('the cwd is compared by realpath: a workspace given through a symlink finds the sessions grok recorded under the real path', async () => {
    const link = join(dir, 'link-to-a');
    symlinkSync(st.wsA, link);
    expect(await grok().discover(ctx(link))).toEqual(st.expected.workspaces[st.wsA]?.visible_sessions_newest_first);
    expect(await grok().verifyArtifact(a1, ctx(link))).toBe(true);
  });

  it('GROK_HOME is used verbatim; without it <home>/.grok', async () => {
    const moved = join(dir, 'elsewhere', 'gh');
    mkdirSync(join(dir, 'elsewhere'));
    renameSync(st.grok, moved);
    expect(await grok().discover(ctx())).toEqual([]);
    expect(await grok().discover(ctx(st.wsA, { GROK_HOME: moved }))).toEqual([a2, a1]);
    expect(await grok().discover(ctx(st.wsA, { GROK_HOME: '' }))).toEqual([]);
    expect(await grok().discover(ctx(st.wsA, { GROK_HOME: 'gh' }))).toEqual([]);
    expect(strs(await grok().residualArtifacts(a1, ctx(st.wsA, { GROK_HOME: 'gh' })))).toEqual(['gh (GROK_HOME is not an absolute path: not searched)']);
  });

  it('purge a1: its session dir and search row (FTS through the trigger); the prompt history is a mention; others untouched', async () => {
    const s = st.expected.sessions[a1];
    const dirPath = st.abs(s?.session_dir ?? '');
    const g = grok();
    const plan = await g.planPurge(a1, ctx());
    expect(plan.artifacts).toEqual([{ kind: 'rows', db: st.searchDb, table: 'session_docs', column: 'session_id', count: 1 }, { kind: 'dir', path: dirPath }]);
    expect(plan.refused).toEqual([]);
    expect(plan.mentions).toEqual([{ kind: 'file', path: st.abs(st.expected.workspaces[st.wsA]?.bucket_files[0] ?? '') }]);
    expect(plan.notes).toEqual([GROK_REMOTE_NOTE]);
    expect(strs(await g.purgeArtifacts(a1, ctx()))).toEqual([`${st.searchDb} (session_docs.session_id: 1 rows)`, dirPath]);
    expect(existsSync(dirPath)).toBe(false);
    expect(strs(await g.residualArtifacts(a1, ctx()))).toEqual([]);
    expect(await g.hasArtifacts(a1, ctx())).toBe(false);
    expect(strs(await g.mentions(a1, ctx()))).toEqual([st.abs(st.expected.workspaces[st.wsA]?.bucket_files[0] ?? '')]);
    expect(searchState(st.searchDb, 'lake')).toEqual({ docs: [a2, b1], matching: [] });
    expect(searchState(st.searchDb, 'hello').matching).toEqual([b1]);
    expect(await grok().discover(ctx())).toEqual([a2]);
  });

  it('purge a2: its subagent child goes too (grok\'s own delete misses it), found through subagents/<child>/meta.json', async () => {
    const parent = st.abs(st.expected.sessions[a2]?.session_dir ?? '');
    const child = st.abs(st.expected.sessions[c1]?.session_dir ?? '');
    const purged = strs(await grok().purgeArtifacts(a2, ctx()));
    expect(purged).toEqual([`${st.searchDb} (session_docs.session_id: 1 rows)`, child, parent]);
    expect([existsSync(parent), existsSync(child)]).toEqual([false, false]);
    expect(strs(await grok().residualArtifacts(a2, ctx()))).toEqual([]);
    expect(strs(await grok().residualArtifacts(c1, ctx()))).toEqual([]);
    expect(searchState(st.searchDb, 'README').matching).toEqual([]);
    expect(await grok().discover(ctx())).toEqual([a1]);
  });

  it('a purge changes exactly its own: the session dirs go, the search database changes, nothing else is touched', async () => {
    const parentRel = `.grok/${st.expected.sessions[a2]?.session_dir ?? ''}`;
    const childRel = `.grok/${st.expected.sessions[c1]?.session_dir ?? ''}`;
    const before = hashTree(st.home);
    await grok().purgeArtifacts(a2, ctx());
    const after = hashTree(st.home);
    const gone = Object.keys(before).filter((k) => !(k in after));
    expect(gone.every((k) => k === parentRel || k.startsWith(`${parentRel}/`) || k === childRel || k.startsWith(`${childRel}/`))).toBe(true);
    expect(gone).toEqual(expect.arrayContaining([parentRel, childRel]));
    const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
    expect(changed).toEqual(['.grok/sessions/session_search.sqlite']);
  });

  it('a child found in another bucket (its own cwd) is purged with its parent', async () => {
    const child = st.abs(st.expected.sessions[c1]?.session_dir ?? '');
    const otherBucket = join(st.grok, 'sessions', encodeGrokCwd(join(dir, 'wt')) ?? 'x');
    mkdirSync(otherBucket);
    const moved = join(otherBucket, c1);
    renameSync(child, moved);
    expect(strs(await grok().purgeArtifacts(a2, ctx()))).toContain(moved);
    expect(existsSync(moved)).toBe(false);
  });

  it('purge of the child alone: its dir goes; the parent\'s subagents/<child>/ and updates.jsonl are mentions, never touched', async () => {
    const parent = st.abs(st.expected.sessions[a2]?.session_dir ?? '');
    const child = st.abs(st.expected.sessions[c1]?.session_dir ?? '');
    const before = hashTree(parent);
    expect(strs(await grok().purgeArtifacts(c1, ctx()))).toEqual([child]);
    expect(hashTree(parent)).toEqual(before);
    expect(strs(await grok().mentions(c1, ctx()))).toEqual([join(parent, 'subagents', c1), join(parent, 'updates.jsonl')]);
    expect(await grok().discover(ctx())).toEqual([a2, a1]);
  });

  it('purge b1: a stale active_sessions.json entry (dead pid) is no use; it and the prompt history are mentions', async () => {
    expect(await grok().conversationInUse(b1, ctx(st.wsB))).toBe(false);
    await grok().purgeArtifacts(b1, ctx(st.wsB));
    expect(strs(await grok().mentions(b1, ctx(st.wsB)))).toEqual([st.abs(st.expected.workspaces[st.wsB]?.bucket_files[0] ?? ''), join(st.grok, 'active_sessions.json')]);
    expect(existsSync(join(st.grok, 'active_sessions.json'))).toBe(true);
  });

  it('worktrees.db rows naming the session are mentions; the worktree checkout (the user\'s work) is never removed', async () => {
    const db = join(st.grok, 'worktrees.db');
    const conn = new Database(db);
    conn.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE worktrees (id TEXT PRIMARY KEY, path TEXT UNIQUE NOT NULL, source_repo TEXT NOT NULL, repo_name TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'session', creation_mode TEXT NOT NULL DEFAULT 'linked', git_ref TEXT, head_commit TEXT, session_id TEXT, creator_pid INTEGER, created_at INTEGER NOT NULL, last_accessed_at INTEGER, status TEXT NOT NULL DEFAULT 'alive', metadata TEXT)");
    const checkout = join(st.grok, 'worktrees', 'repo', 'wt1');
    conn.prepare('INSERT INTO worktrees (id, path, source_repo, repo_name, session_id, created_at) VALUES (?, ?, ?, ?, ?, 1)').run('w1', checkout, st.wsA, 'repo', a1);
    conn.close();
    mkdirSync(checkout, { recursive: true });
    writeFileSync(join(checkout, 'work.txt'), 'the user\'s work');
    await grok().purgeArtifacts(a1, ctx());
    expect(strs(await grok().mentions(a1, ctx()))).toContain(`${db} (worktrees.session_id: 1 rows)`);
    expect(existsSync(join(checkout, 'work.txt'))).toBe(true);
  });

  it('a summary with hidden: true is skipped by discover and verify, like a subagent child', async () => {
    const p = join(st.abs(st.expected.sessions[a1]?.session_dir ?? ''), 'summary.json');
    const summary = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    writeFileSync(p, JSON.stringify({ ...summary, hidden: true }, null, 2));
    expect(await grok().discover(ctx())).toEqual([a2]);
    expect(await grok().verifyArtifact(a1, ctx())).toBe(false);
  });

  it('a dry run of the parent plans it with its child and changes nothing', async () => {
    const before = hashTree(st.home);
    const r = await new PurgeService({ ports: ports() }).purge('grok', a2, { home: st.home, env: {}, dryRun: true });
    expect(r.kind).toBe('dry-run');
    const artifacts = r.kind === 'dry-run' ? r.plan.artifacts : [];
    expect(artifacts).toContainEqual({ kind: 'dir', path: st.abs(st.expected.sessions[c1]?.session_dir ?? '') });
    expect(hashTree(st.home)).toEqual(before);
  });

  it('purge auto <id> resolves to grok and purges it', async () => {
    const svc = new PurgeService({ ports: ports() });
    const r = await svc.purge('auto', a1.toUpperCase(), { home: st.home, env: {} });
    expect(r).toMatchObject({ kind: 'purged', agent: 'grok', residual: [], notes: [GROK_REMOTE_NOTE] });
    expect(existsSync(st.abs(st.expected.sessions[a1]?.session_dir ?? ''))).toBe(false);
  });
});
