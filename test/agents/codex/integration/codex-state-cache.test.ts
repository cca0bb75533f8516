// Codex discover remembers the home's listing of state DBs and each DB's schema facts (layout, backfill status) per
// file-system port, under their lstat stamps, once settled by the ports' clock: a second call on an unchanged home lists
// nothing; any change of the store between two calls gives the new answer.
import { copyFileSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CodexAdapter } from '../../../../src/agents/codex/codex-adapter.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { SpyFileSystem } from '../../../helpers/adapter-codex-spy.js';
import { buildHome, type GenThread } from '../../../helpers/codex-index-home.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const fresh = (): string => {
  const r = realpathSync(mkdtempSync(join(tmpdir(), 'mam-codex-cache-')));
  roots.push(r);
  return r;
};
const plain = (minute: number, over: Partial<GenThread> = {}): GenThread => ({ cwd: 'real', archived: false, row: 'present', subagent: 'no', rollout: 'full', minute, ...over });
// Three threads with their rows, a fourth whose rollout the DB lacks (found only when the DB cannot be trusted).
const threads = [plain(1), plain(2), plain(3), plain(4, { row: 'missing' })];
const age = (paths: string[], secondsAgo: number): void => {
  const t = Math.floor(Date.now() / 1000) - secondsAgo;
  for (const p of paths) utimesSync(p, t, t);
};
const listings = (spy: SpyFileSystem, dir: string): number => spy.calls.filter((c) => c.op === 'readdir' && c.path === dir).length;

function setup(): { h: ReturnType<typeof buildHome>; codex: CodexAdapter; spy: SpyFileSystem; db: string } {
  const h = buildHome(fresh(), { threads, db: 'trusted', given: 'real' });
  const db = join(h.codex, 'state_5.sqlite');
  age([db, h.codex], 3600);
  const spy = new SpyFileSystem(new NodeFileSystem());
  return { h, codex: new CodexAdapter({ ...nodePorts(), fs: spy }), spy, db };
}

describe('codex state DB memory', () => {
  it('a second discover of an unchanged, settled home does not list it again and answers the same', async () => {
    const { h, codex, spy } = setup();
    const first = await codex.discover(h.ctx);
    expect(first).toHaveLength(3);
    expect(listings(spy, h.codex)).toBe(1);
    expect(await codex.discover(h.ctx)).toEqual(first);
    expect(await codex.verifyArtifact(first[0] as string, h.ctx)).toBe(true);
    expect(listings(spy, h.codex)).toBe(1);
  });

  it('a home changed within the settling time is listed again on every call', async () => {
    const { h, codex, spy } = setup();
    age([h.codex], 0);
    await codex.discover(h.ctx);
    await codex.discover(h.ctx);
    expect(listings(spy, h.codex)).toBe(2);
  });

  it('the backfill reopened between two calls (file rewritten, mtime set back to an old but other time): the rollout scan finds the thread the DB lacks', async () => {
    const { h, codex, db } = setup();
    expect(await codex.discover(h.ctx)).toHaveLength(3);
    const w = new Database(db);
    w.exec("UPDATE backfill_state SET status = 'running'");
    w.close();
    age([db], 7200);
    expect(await codex.discover(h.ctx)).toHaveLength(4);
  });

  it('a new state DB beside the old one between two calls (the directory mtime set back to an old but other time): it is read', async () => {
    const { h, codex, db } = setup();
    expect(await codex.discover(h.ctx)).toHaveLength(3);
    const next = join(h.codex, 'state_6.sqlite');
    copyFileSync(db, next);
    const w = new Database(next);
    w.exec("UPDATE backfill_state SET status = 'running'");
    w.close();
    age([next, h.codex], 7200);
    expect(await codex.discover(h.ctx)).toHaveLength(4);
  });

  it('the DB replaced by a rename between two calls, its size and mtime kept: the new inode is seen', async () => {
    const { h, codex, db } = setup();
    expect(await codex.discover(h.ctx)).toHaveLength(3);
    const before = statSync(db);
    const copy = join(h.codex, 'next.tmp');
    copyFileSync(db, copy);
    const w = new Database(copy);
    w.exec("UPDATE backfill_state SET status = 'running'");
    w.close();
    utimesSync(copy, before.atime, before.mtime);
    renameSync(copy, db);
    const after = statSync(db);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(after.ino).not.toBe(before.ino);
    age([h.codex], 3600);
    expect(await codex.discover(h.ctx)).toHaveLength(4);
  });
});
