// Codex discover and verifyArtifact answer from state_5.sqlite: the indexed query by cwd (or the lookup by id) plus one
// lstat per returned rollout, no rollout head read where the DB answers — on the real Codex 0.171 stages and on a
// generated home; a head is read only where the DB cannot answer (a stale rollout_path, a thread missing from it).
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodexAdapter } from '../../../../src/agents/codex/codex-adapter.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { SpyFileSystem } from '../../../helpers/adapter-codex-spy.js';
import { buildHome, genId, type GenThread, scanAnswer } from '../../../helpers/codex-index-home.js';
import { materializeStage, realStages } from '../../../helpers/real-stage.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const fresh = (): string => {
  const r = realpathSync(mkdtempSync(join(tmpdir(), 'mam-codex-idx-')));
  roots.push(r);
  return r;
};

function spied(): { codex: CodexAdapter; spy: SpyFileSystem } {
  const spy = new SpyFileSystem(new NodeFileSystem());
  return { codex: new CodexAdapter({ ...nodePorts(), fs: spy }), spy };
}
const onRollouts = (spy: SpyFileSystem, op: string): string[] => spy.calls.filter((c) => c.op === op && c.path.endsWith('.jsonl')).map((c) => c.path);

const plain = (minute: number, over: Partial<GenThread> = {}): GenThread => ({ cwd: 'real', archived: false, row: 'present', subagent: 'no', rollout: 'full', minute, ...over });

describe('codex answers from the index', () => {
  it.each(realStages('codex'))('%s: discover equals the full scan and reads no rollout head', async (name) => {
    const s = materializeStage(name, fresh());
    const codexHome = s.env['CODEX_HOME'] as string;
    const workspaces = [...new Set(s.expected.conversations.map((c) => c.workspace).filter((w): w is string => w !== null))];
    for (const ws of workspaces) {
      const { codex, spy } = spied();
      const ctx = { workspace: ws, home: s.home, env: s.env };
      const got = await codex.discover(ctx);
      expect(got, ws).toEqual(scanAnswer(codexHome, ws).discover);
      expect(onRollouts(spy, 'readHead'), ws).toEqual([]);
      expect(onRollouts(spy, 'lstat').length, ws).toBe(got.length);
      for (const id of got) {
        const one = spied();
        expect(await one.codex.verifyArtifact(id, ctx, 'verify')).toBe(true);
        expect(onRollouts(one.spy, 'readHead')).toEqual([]);
        expect(onRollouts(one.spy, 'lstat')).toHaveLength(1);
      }
    }
  });

  it('a 40-thread workspace among 200 threads: one lstat per own rollout, no head, no listing of the rollout roots', async () => {
    const threads = Array.from({ length: 200 }, (_, i) => plain(i * 7, { cwd: i < 40 ? 'real' : 'other', archived: i % 9 === 0 }));
    const h = buildHome(fresh(), { threads, db: 'trusted', given: 'link' });
    const { codex, spy } = spied();
    const got = await codex.discover(h.ctx);
    expect(got).toHaveLength(40);
    expect(got).toEqual(scanAnswer(h.codex, h.workspace).discover);
    expect(onRollouts(spy, 'readHead')).toEqual([]);
    expect(onRollouts(spy, 'lstat').every((p) => got.some((id) => p.endsWith(`${id}.jsonl`)))).toBe(true);
    expect(new Set(onRollouts(spy, 'lstat')).size).toBe(40);
    expect(spy.calls.filter((c) => c.op === 'readdir' && c.path.includes('sessions'))).toEqual([]);

    const one = spied();
    expect(await one.codex.verifyArtifact(got[3] as string, h.ctx)).toBe(true);
    expect(onRollouts(one.spy, 'readHead')).toEqual([]);
    expect(onRollouts(one.spy, 'lstat')).toHaveLength(1);
    expect(one.spy.calls.filter((c) => c.op === 'readdir' && c.path.includes('sessions'))).toEqual([]);
  });

  it('a head is read only for the row the DB cannot answer (stale rollout_path), and the moved thread is still found', async () => {
    const threads = [plain(1), plain(2), plain(3, { row: 'stale' }), plain(4, { row: 'moved' })];
    const h = buildHome(fresh(), { threads, db: 'trusted', given: 'real' });
    const { codex, spy } = spied();
    expect(await codex.discover(h.ctx)).toEqual([genId(4), genId(3), genId(2), genId(1)]);
    const heads = onRollouts(spy, 'readHead');
    expect(heads.every((p) => p.includes(genId(3)) || p.includes(genId(4)))).toBe(true);
    expect(heads.some((p) => p.includes(genId(3)))).toBe(true);
    expect(heads.some((p) => p.includes(genId(4)))).toBe(true);
  });

  it('a thread missing from an untrusted DB is found by its head; with a trusted DB it is not a conversation', async () => {
    const threads = [plain(1), plain(2, { row: 'missing' })];
    for (const db of ['incomplete', 'trusted'] as const) {
      const h = buildHome(fresh(), { threads, db, given: 'real' });
      const { codex, spy } = spied();
      expect(await codex.discover(h.ctx)).toEqual(db === 'trusted' ? [genId(1)] : [genId(2), genId(1)]);
      expect(onRollouts(spy, 'readHead').every((p) => p.includes(genId(2)))).toBe(true);
    }
  });

  it('the index answer keeps the guarantees: sub-agent rows left out, the epoch filter, the symlinked workspace', async () => {
    const threads = [plain(10), plain(20, { subagent: 'row' }), plain(30, { cwd: 'link' }), plain(40, { archived: true })];
    const h = buildHome(fresh(), { threads, db: 'trusted', given: 'link' });
    const codex = new CodexAdapter(nodePorts());
    expect(await codex.discover(h.ctx)).toEqual([genId(4), genId(3), genId(1)]);
    const since = Date.UTC(2026, 10, 1) / 1000 + 25 * 60;
    expect(await codex.discover({ ...h.ctx, epoch: since })).toEqual([genId(4), genId(3)]);
    expect(await codex.verifyArtifact(genId(2), h.ctx)).toBe(false);
    // Given as its realpath, the thread recorded under the link's spelling is not this spelling's (as before).
    expect(await codex.discover({ ...h.ctx, workspace: realpathSync(h.workspace) })).toEqual([genId(4), genId(1)]);
  });
});
