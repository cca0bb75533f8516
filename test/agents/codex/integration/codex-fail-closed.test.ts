// Fail closed: a state DB of a layout the adapter does not know (or cannot read) leaves discovery to the rollouts and
// makes a purge remove nothing, saying why in the residual; hostile database content never reaches outside the home.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { buildCodexHome, codexDir, execSql, headLine, rolloutPath, v7, type ThreadSpec } from '../../../helpers/adapter-codex-home.js';
import { dumpRows, hashTree } from '../../../helpers/adapter-codex-tree.js';
import { strs } from '../../../helpers/artifact-strings.js';

const adapter = getAdapter('codex');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function setup(threads: (root: string) => ThreadSpec[], opts: { db?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-closed-'));
  roots.push(root);
  const homeDir = join(root, 'home');
  const ts = threads(root);
  buildCodexHome(homeDir, ts, opts);
  const dir = codexDir(homeDir);
  const ctx: HomeDiscoveryContext = { workspace: join(root, 'ws'), home: homeDir, env: { CODEX_HOME: dir } };
  return { root, homeDir, dir, ts, ctx };
}

const two = (root: string): ThreadSpec[] => [
  { id: v7(1), cwd: join(root, 'ws'), updated: 2_000_000_000 },
  { id: v7(2), cwd: join(root, 'ws'), updated: 2_000_000_500 },
];

const UNKNOWN: Array<[string, string[]]> = [
  ['threads without rollout_path and cwd', ['CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT)']],
  ['no threads table', ['CREATE TABLE conversations (id TEXT PRIMARY KEY, thread_id TEXT)']],
];

describe('a state DB of an unknown layout', () => {
  it.each(UNKNOWN)('(%s): discovery scans the rollouts, purge removes nothing and names the DB', async (_label, ddl) => {
    const { dir, ts, ctx, homeDir } = setup(two);
    const [a, b] = ts as [ThreadSpec, ThreadSpec];
    execSql(join(dir, 'state_9.sqlite'), [...ddl, `INSERT INTO ${ddl[0]?.includes('threads') === true ? 'threads' : 'conversations'} (id) VALUES ('${a.id}')`]);
    expect(await adapter.discover(ctx)).toEqual([b.id, a.id]);
    expect(await adapter.verifyArtifact(a.id, ctx, 'discover')).toBe(true);
    const before = hashTree(homeDir);
    expect(strs(await adapter.purgeArtifacts(a.id, ctx))).toEqual([]);
    expect(hashTree(homeDir)).toEqual(before);
    const residual = strs(await adapter.residualArtifacts(a.id, ctx));
    expect(residual).toContain(`${dir}/state_9.sqlite (unknown layout: refusing to purge)`);
    expect(residual).toContain(rolloutPath(homeDir, a));
    expect(await adapter.hasArtifacts(a.id, ctx)).toBe(true);
  });

  it('alone is no evidence: an id with nothing on disk has no residual and no artifacts', async () => {
    const { dir, ctx } = setup(two);
    execSql(join(dir, 'state_9.sqlite'), UNKNOWN[0]?.[1] ?? []);
    const stranger = v7(99);
    expect(strs(await adapter.residualArtifacts(stranger, ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(stranger, ctx)).toBe(false);
  });

  it('an unreadable state DB refuses the purge the same way', async () => {
    const { dir, ts, ctx, homeDir } = setup(two);
    writeFileSync(join(dir, 'state_5.sqlite'), 'this is not a database'.repeat(300));
    const before = hashTree(homeDir);
    expect(strs(await adapter.purgeArtifacts(ts[0]?.id as string, ctx))).toEqual([]);
    expect(hashTree(homeDir)).toEqual(before);
    // The refusal names why the database cannot be read (issue 31: the cause, not a bare "unreadable").
    expect(strs(await adapter.residualArtifacts(ts[0]?.id as string, ctx))).toContainEqual(expect.stringMatching(new RegExp(`^${dir}/state_5\\.sqlite \\(unreadable \\(.*not a database.*\\): refusing to purge\\)$`)));
    expect(await adapter.discover(ctx)).toEqual([ts[1]?.id, ts[0]?.id]);
  });
});

describe('layouts the adapter knows beyond the newest', () => {
  it('no state DB at all (rollouts only): discovery scans, purge removes the files', async () => {
    const { ts, ctx } = setup(two, { db: false });
    expect(await adapter.discover(ctx)).toEqual([ts[1]?.id, ts[0]?.id]);
    expect(strs(await adapter.purgeArtifacts(ts[0]?.id as string, ctx))).toHaveLength(3);
    expect(strs(await adapter.residualArtifacts(ts[0]?.id as string, ctx))).toEqual([]);
  });

  it('an unfinished backfill: a rollout the DB lacks is still discovered', async () => {
    const { dir, root, ctx, homeDir } = setup((r) => [
      { id: v7(1), cwd: join(r, 'ws'), updated: 2_000_000_000 },
      { id: v7(2), cwd: join(r, 'ws'), updated: 2_000_000_500, row: false },
    ]);
    expect(await adapter.discover(ctx)).toEqual([v7(1)]);
    execSql(join(dir, 'state_5.sqlite'), ["CREATE TABLE backfill_state (id INTEGER PRIMARY KEY, status TEXT NOT NULL)", "INSERT INTO backfill_state VALUES (1, 'running')"]);
    expect(await adapter.discover(ctx)).toEqual([v7(2), v7(1)]);
    expect(await adapter.verifyArtifact(v7(2), ctx, 'discover')).toBe(true);
    expect(root && homeDir).toBeTruthy();
  });

  it('the oldest rollout format (id and cwd at the top of the first line) is read too', async () => {
    const { dir, ctx, homeDir } = setup(() => [], { db: false });
    const id = v7(5);
    const path = join(dir, 'sessions', '2025', '01', '02', `rollout-2025-01-02T10-00-00-${id}.jsonl`);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${JSON.stringify({ id, cwd: ctx.workspace, timestamp: '2025-01-02T10:00:00Z' })}\n`);
    expect(await adapter.discover(ctx)).toEqual([id]);
    expect(homeDir).toBeTruthy();
  });
});

describe('hostile database content', () => {
  it('a rollout_path outside the home is never removed (residual), and a FIFO there never blocks discovery', async () => {
    const { dir, root, ts, ctx } = setup(two);
    const [a, b] = ts as [ThreadSpec, ThreadSpec];
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const victim = join(outside, `rollout-2030-01-01T00-00-00-${a.id}.jsonl`);
    writeFileSync(victim, `${headLine(a.id, a.cwd, 10)}\n`);
    const fifo = join(outside, `rollout-2030-01-01T00-00-00-${b.id}.jsonl`);
    execFileSync('mkfifo', [fifo]);
    rmSync(rolloutPath(join(root, 'home'), b));
    execSql(join(dir, 'state_5.sqlite'), [`UPDATE threads SET rollout_path = '${victim}' WHERE id = '${a.id}'`, `UPDATE threads SET rollout_path = '${fifo}' WHERE id = '${b.id}'`]);
    expect(await adapter.discover(ctx)).toEqual([a.id]);
    const purged = strs(await adapter.purgeArtifacts(a.id, ctx));
    expect(purged).not.toContain(victim);
    expect(readFileSync(victim, 'utf8')).toContain(a.id);
    // The threads row that ties the stray rollout to the conversation stays with it, so the residual still names both.
    expect(strs(await adapter.residualArtifacts(a.id, ctx))).toEqual([victim, `${dir}/state_5.sqlite (threads.id: 1 rows)`]);
    expect(purged).toContain(`${dir}/state_5.sqlite (thread_dynamic_tools.thread_id: 1 rows)`);
  });

  it('a rollout_path naming another conversation\'s file is not taken for this one', async () => {
    const { dir, ts, ctx, homeDir } = setup(two);
    const [a, b] = ts as [ThreadSpec, ThreadSpec];
    execSql(join(dir, 'state_5.sqlite'), [`UPDATE threads SET rollout_path = '${rolloutPath(homeDir, b)}' WHERE id = '${a.id}'`]);
    strs(await adapter.purgeArtifacts(a.id, ctx));
    expect(existsSync(rolloutPath(homeDir, b))).toBe(true);
    expect(await adapter.discover(ctx)).toEqual([b.id]);
  });

  it('rows of other threads that only refer to the id stay and are reported as mentions; spawn edges go', async () => {
    const { dir, ts, ctx } = setup(two);
    const [a, b] = ts as [ThreadSpec, ThreadSpec];
    const db = join(dir, 'state_5.sqlite');
    execSql(db, [
      `UPDATE threads SET attached_thread_parent_id = '${a.id}' WHERE id = '${b.id}'`,
      `INSERT INTO thread_spawn_edges VALUES ('${a.id}', '${b.id}', 'done')`,
      'CREATE TABLE rollout_migration_state (migration_id TEXT PRIMARY KEY, last_checked_thread_id TEXT)',
      `INSERT INTO rollout_migration_state VALUES ('m1', '${a.id}')`,
    ]);
    const purged = strs(await adapter.purgeArtifacts(a.id, ctx));
    expect(purged).toContain(`${db} (thread_spawn_edges.parent_thread_id: 1 rows)`);
    expect(dumpRows(db).filter((l) => l.startsWith('threads ')).map((l) => (JSON.parse(l.slice(8)) as { id: string }).id)).toEqual([b.id]);
    expect(strs(await adapter.residualArtifacts(a.id, ctx))).toEqual([]);
    expect((strs(await adapter.mentions(a.id, ctx))).sort()).toEqual([`${db} (rollout_migration_state.last_checked_thread_id: 1 rows)`, `${db} (threads.attached_thread_parent_id: 1 rows)`]);
  });

  it('shared files that still name the id are mentions, never touched', async () => {
    const { dir, ts, ctx } = setup(two);
    const id = ts[0]?.id as string;
    const history = join(dir, 'history.jsonl');
    writeFileSync(history, `{"session_id":"${id}","ts":1,"text":"hi"}\n{"session_id":"${ts[1]?.id}","ts":2,"text":"yo"}\n`);
    const text = readFileSync(history, 'utf8');
    strs(await adapter.purgeArtifacts(id, ctx));
    expect(readFileSync(history, 'utf8')).toBe(text);
    expect(strs(await adapter.mentions(id, ctx))).toEqual([history]);
    expect(strs(await adapter.residualArtifacts(id, ctx))).toEqual([]);
  });
});
