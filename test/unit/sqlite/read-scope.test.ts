// withReadScope: every withReadonlyDb of one path (on one FileSystemPort) inside the scope shares one connection, opened
// once and closed when the scope ends; a nested scope is the outer one; outside any scope nothing is shared.
import Database from 'better-sqlite3';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { withReadonlyDb } from '../../../src/sqlite/open-readonly.js';
import { withReadScope } from '../../../src/sqlite/read-scope.js';

let root: string;
let a: string;
let b: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-scope-')));
  [a, b] = ['a.db', 'b.db'].map((n) => join(root, n)) as [string, string];
  for (const p of [a, b]) {
    const db = new Database(p);
    db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2)');
    db.close();
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const count = (fs: NodeFileSystem, p: string) => withReadonlyDb(p, { fs }, (h) => ({ n: h.db.prepare('SELECT count(*) FROM t').pluck().get() as number, db: h.db }));

describe('withReadScope', () => {
  it('opens each path once for any number of reads, and closes it when the scope ends', async () => {
    const fs = new NodeFileSystem();
    const stats = { opens: [] as string[] };
    const got = await withReadScope(() => Promise.all([count(fs, a), count(fs, a), count(fs, b), count(fs, a)]), stats);
    expect(got.map((g) => g.n)).toEqual([2, 2, 2, 2]);
    expect(stats.opens).toEqual([a, b]);
    expect(got[0]?.db).toBe(got[1]?.db);
    expect(got.every((g) => !g.db.open)).toBe(true);
  });

  it('shares nothing outside a scope, and a nested scope is the outer one', async () => {
    const fs = new NodeFileSystem();
    const [x, y] = [await count(fs, a), await count(fs, a)];
    expect(x.db).not.toBe(y.db);
    const stats = { opens: [] as string[] };
    const inner = { opens: [] as string[] };
    await withReadScope(async () => {
      await count(fs, a);
      await withReadScope(() => count(fs, a), inner);
    }, stats);
    expect(stats.opens).toEqual([a]);
    expect(inner.opens).toEqual([]);
  });

  it('keeps a failed open as the answer for the scope (a missing database is asked once)', async () => {
    const fs = new NodeFileSystem();
    const stats = { opens: [] as string[] };
    const missing = join(root, 'none.db');
    const results = await withReadScope(() => Promise.all([count(fs, missing).catch(() => 'gone'), count(fs, missing).catch(() => 'gone')]), stats);
    expect(results).toEqual(['gone', 'gone']);
    expect(stats.opens).toEqual([missing]);
  });

  it('keeps the connections of two file system ports apart', async () => {
    const stats = { opens: [] as string[] };
    await withReadScope(() => Promise.all([count(new NodeFileSystem(), a), count(new NodeFileSystem(), a)]), stats);
    expect(stats.opens).toEqual([a, a]);
  });
});
