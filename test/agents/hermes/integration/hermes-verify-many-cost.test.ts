// Hermes's verifyMany of a status-like batch (many rows naming few ids over two workspaces) answers as verifyArtifact
// per row, and does the fixed work once: on one connection no SQL is prepared twice (a second batch on the same
// connection prepares nothing), and no directory (workspace or recorded) is resolved twice in a batch; where the active
// store decides every query, a named profile's store is not read.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import type { VerifyQuery } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { withReadonlyDb } from '../../../../src/sqlite/open-readonly.js';
import { withReadScope } from '../../../../src/sqlite/read-scope.js';
import { IDS, type HermesRealStage, materializeHermesStage } from '../../../helpers/adapter-hermes-real.js';
import { SpyFileSystem } from '../../../helpers/adapter-codex-spy.js';

let root: string;
let s: HermesRealStage;
let queries: VerifyQuery[];
let want: boolean[];

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-hermes-cost-')));
  s = materializeHermesStage('02-compressed', root);
  const ids = [IDS.a1, IDS.a2, IDS.b1, IDS.a3_root, IDS.a3_child, 'not an id', '20260101_000000_abcdef'];
  // 33 rows: ids repeated, each against both workspaces, some without a workspace of their own (the context's).
  queries = Array.from({ length: 33 }, (_, i) => {
    const id = ids[i % ids.length] as string;
    return i % 5 === 4 ? { id } : { id, workspace: i % 3 === 0 ? s.wsB : s.wsA };
  });
  const hermes = new HermesAdapter(nodePorts({ env: s.ctx.env }));
  want = [];
  for (const q of queries) want.push(await hermes.verifyArtifact(q.id, { ...s.ctx, workspace: q.workspace ?? s.ctx.workspace }));
  expect(want).toContain(true);
  expect(want).toContain(false);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('hermes verifyMany cost', () => {
  it('prepares each statement once per connection, whatever the number of rows naming an id', async () => {
    const ports = nodePorts({ env: s.ctx.env });
    const hermes = new HermesAdapter(ports);
    await withReadScope(async () => {
      // The scope's one connection of state.db, which the adapter's reads share: its prepares are counted.
      const h = await withReadonlyDb(s.db, { fs: ports.fs, requireFile: true }, (x) => x);
      const sqls: string[] = [];
      const real = h.db.prepare.bind(h.db);
      h.db.prepare = ((sql: string) => {
        sqls.push(sql);
        return real(sql);
      }) as typeof h.db.prepare;
      expect(await hermes.verifyMany(queries, s.ctx)).toEqual(want);
      expect(sqls.length).toBeGreaterThan(0);
      expect(sqls.length).toBe(new Set(sqls).size);
      sqls.length = 0;
      expect(await hermes.verifyMany(queries, s.ctx)).toEqual(want);
      expect(sqls).toEqual([]);
    });
  });

  it('resolves each directory at most once per batch, and answers as verifyArtifact per row', async () => {
    const ports = nodePorts({ env: s.ctx.env });
    const spy = new SpyFileSystem(ports.fs);
    const hermes = new HermesAdapter({ ...ports, fs: spy });
    for (const scoped of [false, true]) {
      spy.calls.length = 0;
      const got = scoped ? await withReadScope(() => hermes.verifyMany(queries, s.ctx)) : await hermes.verifyMany(queries, s.ctx);
      expect(got).toEqual(want);
      const real = spy.calls.filter((c) => c.op === 'realpath').map((c) => c.path);
      expect(real.length).toBeGreaterThan(0);
      expect(real.length).toBe(new Set(real).size);
      // Each store opened once for the batch (its file's lstat), not once per row or id.
      expect(spy.calls.filter((c) => c.op === 'lstat' && c.path === s.db)).toHaveLength(1);
    }
  });

  it('a batch the active store decides lists and reads no profile store; one it does not decide reads the profile and finds it there', async () => {
    const other = join(root, 'profile-stage');
    const p = materializeHermesStage('01-two-sessions', other);
    const profiles = join(s.ctx.home, '.hermes', 'profiles');
    mkdirSync(profiles, { recursive: true });
    const work = join(profiles, 'work');
    renameSync(p.hermesHome, work);
    const profileDb = join(work, 'state.db');
    try {
      const ports = nodePorts({ env: s.ctx.env });
      const spy = new SpyFileSystem(ports.fs);
      const hermes = new HermesAdapter({ ...ports, fs: spy });
      const here = queries.filter((q, i) => want[i] === true);
      expect(here.length).toBeGreaterThan(0);
      expect(await hermes.verifyMany(here, s.ctx)).toEqual(here.map(() => true));
      // Not even listed: the profiles directory is not read.
      expect(spy.calls.filter((c) => c.path.startsWith(profiles))).toEqual([]);
      spy.calls.length = 0;
      // The profile's own workspace: the active store says no, the profile's says yes.
      expect(await hermes.verifyMany([...here, { id: IDS.a1, workspace: p.wsA }], s.ctx)).toEqual([...here.map(() => true), true]);
      expect(spy.calls.filter((c) => c.path === profileDb).length).toBeGreaterThan(0);
    } finally {
      rmSync(profiles, { recursive: true, force: true });
    }
  });
});
