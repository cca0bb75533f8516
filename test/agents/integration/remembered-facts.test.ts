// What Claude, Grok and agy remember of a file costs, on a later call of an unchanged settled file, one lstat of it and no
// open: a transcript's head, a summary.json, a conversation database (whose absent sidecars its directory's stamp vouches
// for: not looked at). An unsettled file is read again on every call.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { GrokAdapter } from '../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../src/agents/grok/grok-encode.js';
import { resolvePorts } from '../../../src/node/node-ports.js';
import { withReadScope } from '../../../src/sqlite/read-scope.js';
import { setFactCaching } from '../../../src/cache/fact-cache.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem } from '../../helpers/adapter-agy-files.js';
import { writeAgyRealDb } from '../../helpers/adapter-agy-real-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let ws: string;
beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-facts-'));
  home = join(dir, 'home');
  ws = join(dir, 'ws');
  for (const d of [home, ws]) mkdirSync(d);
});
afterEach(() => dispose());

const proc = new FakeProcessTable([{ pid: 1, argv: ['init'] }]);
// A minute ago: settled by the real clock. Now: not.
const age = (p: string, settled: boolean): void => {
  const t = settled ? Date.now() / 1000 - 60 : Date.now() / 1000;
  utimesSync(p, t, t);
  utimesSync(dirname(p), t, t);
};
const ops = (spy: SpyFileSystem, path: string): string[] => spy.calls.filter((c) => c.path === path).map((c) => c.op);

// Two calls on one adapter; the second's calls on `path`, and the databases it opened.
async function secondCall(make: (ports: ReturnType<typeof resolvePorts>) => { verifyMany?: (q: Array<{ id: string }>, c: { workspace: string; home: string }) => Promise<boolean[]> }, id: string, path: string, caching = true): Promise<{ first: string[]; second: string[]; answers: boolean[][]; opens: string[] }> {
  const spy = new SpyFileSystem();
  if (!caching) setFactCaching(spy.port, false);
  const a = make(resolvePorts({ fs: spy.port, proc }));
  const ctx = { workspace: ws, home };
  const answers = [await withReadScope(async () => (await a.verifyMany?.([{ id }, { id }], ctx)) ?? [])];
  const first = ops(spy, path);
  spy.calls.length = 0;
  const stats = { opens: [] as string[] };
  answers.push(await withReadScope(async () => (await a.verifyMany?.([{ id }, { id }], ctx)) ?? [], stats));
  return { first, second: ops(spy, path), answers, opens: stats.opens };
}

describe('remembered facts: the cache turned off', () => {
  it('claude: a settled transcript is read again on every call', async () => {
    const id = '6f1f8f52-3c7e-4d0b-9a55-0c2f4b7e9a10';
    const t = join(home, '.claude', 'projects', claudeProjectKey(ws), `${id}.jsonl`);
    mkdirSync(dirname(t), { recursive: true });
    writeFileSync(t, `${JSON.stringify({ type: 'user', cwd: ws })}\n`);
    age(t, true);
    const r = await secondCall((p) => new ClaudeAdapter(p), id, t, false);
    expect(r.answers).toEqual([[true, true], [true, true]]);
    expect(r.second).toEqual(['lstat', 'readHead']);
  });
});

describe('remembered facts: an unchanged settled file costs one lstat', () => {
  for (const settled of [true, false]) {
    it(`claude: a transcript's first cwd (${settled ? 'settled: not read again' : 'unsettled: read again'})`, async () => {
      const id = '6f1f8f52-3c7e-4d0b-9a55-0c2f4b7e9a10';
      const t = join(home, '.claude', 'projects', claudeProjectKey(ws), `${id}.jsonl`);
      mkdirSync(dirname(t), { recursive: true });
      writeFileSync(t, `${JSON.stringify({ type: 'user', cwd: ws })}\n`);
      age(t, settled);
      const r = await secondCall((p) => new ClaudeAdapter(p), id, t);
      expect(r.answers).toEqual([[true, true], [true, true]]);
      expect(r.first).toEqual(['lstat', 'readHead']);
      expect(r.second).toEqual(settled ? ['lstat'] : ['lstat', 'readHead']);
    });

    it(`grok: a session's summary.json (${settled ? 'settled: not read again' : 'unsettled: read again'})`, async () => {
      const id = '01a0355c-0000-7000-8000-000000000001';
      const s = join(home, '.grok', 'sessions', encodeGrokCwd(ws) as string, id, 'summary.json');
      mkdirSync(dirname(s), { recursive: true });
      writeFileSync(s, JSON.stringify({ info: { id, cwd: ws } }));
      age(s, settled);
      const r = await secondCall((p) => new GrokAdapter(p), id, s);
      expect(r.answers).toEqual([[true, true], [true, true]]);
      // Read once per call however many queries name it: the remembering look, then the read's own regular-file check.
      expect(r.first).toEqual(['lstat', 'lstat', 'readHead']);
      expect(r.second).toEqual(settled ? ['lstat'] : ['lstat', 'lstat', 'readHead']);
    });

    it(`agy: a conversation database's record (${settled ? 'settled: no open, sidecars not looked at' : 'unsettled: opened again'})`, async () => {
      const id = '2f6d3c1e-8a4b-4c2d-9e1f-3a5b7c9d1e2f';
      const db = writeAgyRealDb(join(home, '.gemini'), id, { workspaces: [ws] });
      age(db, settled);
      const r = await secondCall((p) => new AgyAdapter(p), id, db);
      expect(r.answers).toEqual([[true, true], [true, true]]);
      // The remembering look (settled only), then the opener's own look, which is the regular-file and not-a-link check.
      expect(r.first).toEqual(settled ? ['lstat', 'lstat'] : ['lstat']);
      expect(r.second).toEqual(['lstat']);
      expect(r.opens).toEqual(settled ? [] : [db]);
    });
  }

  it('agy: a settled database\'s absent sidecars are vouched for by one look at its directory', async () => {
    const id = '2f6d3c1e-8a4b-4c2d-9e1f-3a5b7c9d1e2f';
    const db = writeAgyRealDb(join(home, '.gemini'), id, { workspaces: [ws] });
    age(db, true);
    const spy = new SpyFileSystem();
    const a = new AgyAdapter(resolvePorts({ fs: spy.port, proc }));
    await a.verifyMany([{ id }], { workspace: ws, home });
    spy.calls.length = 0;
    expect(await a.verifyMany([{ id }], { workspace: ws, home })).toEqual([true]);
    for (const x of ['-wal', '-shm', '-journal']) expect(ops(spy, db + x)).toEqual([]);
    expect(ops(spy, dirname(db))).toEqual(['lstat']);
    // A sidecar appearing moves the directory's stamp: read afresh.
    writeFileSync(`${db}-journal`, '');
    spy.calls.length = 0;
    const stats = { opens: [] as string[] };
    expect(await withReadScope(() => a.verifyMany([{ id }], { workspace: ws, home }), stats)).toEqual([true]);
    expect(stats.opens).toEqual([db]);
  });
});
