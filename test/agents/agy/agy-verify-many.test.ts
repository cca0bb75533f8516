// agy's verifyMany reads each conversation once per batch whatever the number of rows naming it, the shared cache at most
// once (and not at all when every conversation records its workspace), never the activity stats or the ACP copy of a
// conversation whose CLI database records its workspace; hostile ids reach no path.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { resolvePorts } from '../../../src/node/node-ports.js';
import { withReadScope } from '../../../src/sqlite/read-scope.js';
import { freshId, SpyFileSystem, writeAgyCache } from '../../helpers/adapter-agy-files.js';
import { writeAgyAcp, writeAgyRealDb } from '../../helpers/adapter-agy-real-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let gemini: string;
let wsA: string;
let wsB: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-verify-many-'));
  home = join(dir, 'home');
  gemini = join(home, '.gemini');
  wsA = join(dir, 'ws-a');
  wsB = join(dir, 'ws-b');
  for (const d of [home, wsA, wsB]) mkdirSync(d);
});
afterEach(() => dispose());

const ctx = () => ({ workspace: wsA, home, env: {} });

describe('agy verifyMany: reads per batch', () => {
  it('30 rows over 3 conversations recording their workspace: each database looked at and opened once, no cache, no ACP, no activity stat', async () => {
    const ids = [freshId(), freshId(), freshId()];
    const dbs = ids.map((id, i) => writeAgyRealDb(gemini, id, { workspaces: [i === 2 ? wsB : wsA] }));
    const cache = writeAgyCache(home, { [wsA]: ids[0] as string });
    writeAgyAcp(gemini, ids[0] as string, wsA);
    const queries = Array.from({ length: 30 }, (_, n) => ({ id: ids[n % 3] as string, workspace: n % 2 === 0 ? wsA : wsB }));
    const spy = new SpyFileSystem();
    const stats = { opens: [] as string[] };
    const got = await withReadScope(() => new AgyAdapter(resolvePorts({ fs: spy.port })).verifyMany(queries, ctx()), stats);
    expect(got).toEqual(queries.map((q, n) => (n % 3 === 2 ? q.workspace === wsB : q.workspace === wsA)));
    for (const db of dbs) {
      // Once per batch: the opener's one look, which is the regular-file and not-a-link check (a plain path needs no
      // realpath; a file that is not SQLite fails at the open, or before it where sidecars would be read).
      expect(spy.calls.filter((c) => c.path === db).map((c) => c.op).sort(), db).toEqual(['lstat']);
    }
    expect(stats.opens.sort()).toEqual([...dbs].sort());
    expect(spy.calls.filter((c) => c.path === cache)).toEqual([]);
    expect(spy.calls.filter((c) => c.path.includes('antigravity-acp'))).toEqual([]);
    expect(spy.calls.filter((c) => c.op === 'stat' && c.path.startsWith(gemini))).toEqual([]);
    // Each workspace resolved once.
    expect(spy.calls.filter((c) => c.op === 'realpath' && c.path === wsB)).toHaveLength(1);
  });

  it('conversations recording no workspace: the cache read once for the batch, and its hint decides', async () => {
    const [a, b, c] = [freshId(), freshId(), freshId()];
    for (const id of [a, b, c]) writeAgyRealDb(gemini, id, { workspaces: [] });
    const cache = writeAgyCache(home, { [wsA]: a, [wsB]: b });
    const queries = [a, b, c, a, b, c].map((id, n) => ({ id, workspace: n < 3 ? wsA : wsB }));
    const spy = new SpyFileSystem();
    const got = await new AgyAdapter(resolvePorts({ fs: spy.port })).verifyMany(queries, ctx());
    // b is mapped to wsB only, a to wsA only; c is placed nowhere (verify mode: not elsewhere).
    expect(got).toEqual([true, false, true, false, true, true]);
    expect(spy.calls.filter((x) => x.op === 'readHead' && x.path === cache)).toHaveLength(1);
  });

  it('hostile ids answer false and reach no path; a canonical spelling in another case is the same conversation', async () => {
    const id = freshId();
    writeAgyRealDb(gemini, id, { workspaces: [wsA] });
    const bad = ['', '../x', `../${id}`, `${id}\0`, `${id}/..`, 'not an id', id.replace(/-/g, '')];
    const spy = new SpyFileSystem();
    const got = await new AgyAdapter(resolvePorts({ fs: spy.port })).verifyMany([...bad, id.toUpperCase()].map((i) => ({ id: i })), ctx());
    expect(got).toEqual([...bad.map(() => false), true]);
    expect(spy.calls.filter((c) => c.path.includes('..') || c.path.includes('\0') || c.path.includes('not an id'))).toEqual([]);
  });
});
