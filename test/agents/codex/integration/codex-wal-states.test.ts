// Every read the codex adapter makes, in the four WAL states of its state DB (real writer processes): the directory
// listing never changes and rows that live only in -wal are seen. Then the real crash state (every database of a real
// stage only in -wal) for discover, verify and purge.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { withReadonlyDb } from '../../../../src/sqlite/index.js';
import { walStage } from '../../../helpers/adapter-codex-crash.js';
import { buildCodexHome, codexDir, rolloutPath, stateSql, v7, type ThreadSpec } from '../../../helpers/adapter-codex-home.js';
import { materializeStage } from '../../../helpers/real-stage.js';
import { buildWalState, snapshotDir, WAL_STATES } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';

const fs = new NodeFileSystem();
const adapter = getAdapter('codex');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tempRoot(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-codex-wal-'));
  roots.push(r);
  return r;
}

const QUERIES = ['discover', 'verify', 'residual', 'capture', 'hasArtifacts', 'inUse'] as const;

describe.each(WAL_STATES)('state DB in the %s state', (state) => {
  it.each(QUERIES)('%s reads the rows and leaves the directory as it was', async (query) => {
    const root = tempRoot();
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    const a: ThreadSpec = { id: v7(1), cwd: ws, updated: 2_000_000_000 };
    // Only a threads row: nothing on disk but the database says this id exists.
    const b: ThreadSpec = { id: v7(2), cwd: ws, updated: 2_000_000_100, rollout: false };
    buildCodexHome(home, [a], { db: false });
    // a's rollout lies where no scan looks: only its threads row (living in -wal in three states) leads to it.
    const hidden = join(codexDir(home), 'elsewhere', `rollout-2033-05-18T03-33-20-${a.id}.jsonl`);
    mkdirSync(dirname(hidden), { recursive: true });
    renameSync(rolloutPath(home, a), hidden);
    const sql = stateSql(home, [a, b]).map((q) => q.replace(rolloutPath(home, a), hidden));
    const fx = await buildWalState(state, join(codexDir(home), 'state_5.sqlite'), sql, { sqlOnCommandLine: true });
    try {
      const dir = codexDir(home);
      expect(snapshotDir(dir).filter((l) => l.startsWith('state_5')).map((l) => l.split(' ')[0])).toEqual(fx.names);
      const before = snapshotDir(dir);
      const ctx: HomeDiscoveryContext = { workspace: ws, home: home, env: { CODEX_HOME: dir } };
      switch (query) {
        case 'discover':
          // Found only through its row (no scan looks in elsewhere/).
          expect(await adapter.discover(ctx)).toEqual([a.id]);
          break;
        case 'verify':
          expect(await adapter.verifyArtifact(a.id, ctx, 'discover')).toBe(true);
          expect(await adapter.verifyArtifact(b.id, ctx, 'verify')).toBe(false);
          break;
        case 'residual':
          expect(strs(await adapter.residualArtifacts(b.id, ctx))).toEqual([
            `${dir}/state_5.sqlite (thread_dynamic_tools.thread_id: 1 rows)`,
            `${dir}/state_5.sqlite (threads.id: 1 rows)`,
          ]);
          break;
        case 'capture':
          expect(await adapter.captureActiveSessionId({ name: 'r', status: 'running', agent: 'codex', herdr_session_epoch: 1_999_999_000 }, ctx)).toEqual({ kind: 'captured', id: a.id });
          break;
        case 'hasArtifacts':
          expect(await adapter.hasArtifacts(b.id, ctx)).toBe(true);
          break;
        case 'inUse':
          // The live writer's argv carries the SQL (so names the id); holding the shared DB alone never counts.
          expect((await adapter.inUseHolders(a.id, ctx)).map((h) => [h.pid, h.signal])).toEqual(fx.writer?.pid === undefined ? [] : [[fx.writer.pid, 'command-line']]);
          break;
      }
      expect(snapshotDir(dir)).toEqual(before);
    } finally {
      await fx.stop();
    }
  });
});

describe.each(WAL_STATES)('purge with the state DB in the %s state', (state) => {
  it('deletes the thread\'s rows (wherever they live) and keeps the other thread\'s', async () => {
    const root = tempRoot();
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    const a: ThreadSpec = { id: v7(1), cwd: ws, updated: 2_000_000_000 };
    const b: ThreadSpec = { id: v7(2), cwd: ws, updated: 2_000_000_100 };
    buildCodexHome(home, [a, b], { db: false });
    const db = join(codexDir(home), 'state_5.sqlite');
    const fx = await buildWalState(state, db, stateSql(home, [a, b]));
    try {
      const ctx: HomeDiscoveryContext = { workspace: ws, home: home, env: { CODEX_HOME: codexDir(home) } };
      const purged = strs(await adapter.purgeArtifacts(a.id, ctx));
      expect(purged.filter((p) => p.includes('.sqlite ('))).toEqual([`${db} (thread_dynamic_tools.thread_id: 1 rows)`, `${db} (threads.id: 1 rows)`]);
      expect(strs(await adapter.residualArtifacts(a.id, ctx))).toEqual([]);
      expect(await adapter.discover(ctx)).toEqual([b.id]);
      // A live writer of the shared DB keeps its sidecars: the purge never removes them.
      if (state === 'writer') expect(existsSync(`${db}-wal`) && existsSync(`${db}-shm`)).toBe(true);
    } finally {
      await fx.stop();
    }
  });
});

describe('the real crash state (codex/06 after SIGKILL: every row only in -wal)', () => {
  async function crashed() {
    const root = tempRoot();
    const s = materializeStage('codex/06-after-sigkill', root);
    const writers = await walStage(s, join(root, 'scratch'));
    await Promise.all(writers.map((w) => w.stop()));
    return s;
  }

  it('really has the rows only in -wal', async () => {
    const s = await crashed();
    const state = s.abs('.codex/state_5.sqlite');
    expect(existsSync(`${state}-wal`)).toBe(true);
    expect(statSync(`${state}-wal`).size).toBeGreaterThan(statSync(state).size);
    const alone = join(tempRoot(), 'alone.sqlite');
    await fs.copyFile(state, alone);
    const tables = await withReadonlyDb(alone, { fs }, ({ db }) => db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'threads'").pluck().get());
    expect(tables).toBe(0);
  });

  it('discover and verify see the threads and change no listing', async () => {
    const s = await crashed();
    const dir = s.abs('.codex');
    const before = snapshotDir(dir);
    const ws = join(s.root, 'ws-codex');
    const ctx = { workspace: ws, home: s.home, env: s.env };
    expect(await adapter.discover(ctx)).toEqual(['01a229f2-dd9f-7f71-b03f-29e4937c4596', '01a229ee-c7e7-7552-8c0d-4fec1afe05e8']);
    expect(await adapter.verifyArtifact('01a229ee-c7e7-7552-8c0d-4fec1afe05e8', ctx, 'discover')).toBe(true);
    expect(await adapter.verifyArtifact('01a229e4-5cbc-7f60-86ff-abaf22a4b8e4', ctx, 'verify')).toBe(false);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('purge deletes the rows that lived only in -wal and keeps the other threads\' rows', async () => {
    const s = await crashed();
    const id = '01a229f2-dd9f-7f71-b03f-29e4937c4596';
    const ctx = { workspace: join(s.root, 'ws-codex'), home: s.home, env: s.env };
    const purged = strs(await adapter.purgeArtifacts(id, ctx));
    expect(purged.filter((p) => p.includes('.sqlite ('))).toEqual([
      `${s.abs('.codex/thread_history_1.sqlite')} (thread_history_projection_state.thread_id: 1 rows)`,
      `${s.abs('.codex/thread_history_1.sqlite')} (thread_items.thread_id: 1 rows)`,
      `${s.abs('.codex/thread_history_1.sqlite')} (thread_turns.thread_id: 1 rows)`,
      `${s.abs('.codex/state_5.sqlite')} (threads.id: 1 rows)`,
    ]);
    expect(strs(await adapter.residualArtifacts(id, ctx))).toEqual([]);
    const others = await withReadonlyDb(s.abs('.codex/state_5.sqlite'), { fs }, ({ db }) => db.prepare('SELECT id FROM threads ORDER BY id').pluck().all());
    expect(others).toEqual(['01a229e4-5cbc-7f60-86ff-abaf22a4b8e4', '01a229ee-c7e7-7552-8c0d-4fec1afe05e8']);
    const history = await withReadonlyDb(s.abs('.codex/thread_history_1.sqlite'), { fs }, ({ db }) => db.prepare('SELECT DISTINCT thread_id FROM thread_turns ORDER BY 1').pluck().all());
    expect(history).toEqual(['01a229e4-5cbc-7f60-86ff-abaf22a4b8e4', '01a229ee-c7e7-7552-8c0d-4fec1afe05e8']);
    expect(await adapter.discover(ctx)).toEqual(['01a229ee-c7e7-7552-8c0d-4fec1afe05e8']);
  });
});
