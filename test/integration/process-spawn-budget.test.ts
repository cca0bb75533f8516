import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPortError } from '../../src/errors.js';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { startSleeper, stopAll, type TestChild } from '../helpers/proc-children.js';
import { spawnCounter, whichTool, type SpawnCounter } from '../helpers/proc-spawn-counter.js';

const HAS_PROC = existsSync('/proc/self/stat');
const ID = 'c0ffee00-1234-4abc-8def-0123456789ab';

describe('spawn budget of an in-use check', () => {
  let dir: string;
  let paths: string[];
  let holder: TestChild;
  let counter: SpawnCounter;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mam-spawns-'));
    paths = ['db', 'db-wal', 'db-shm', 'db-journal', 'lock'].map((s) => join(dir, `${ID}.${s}`));
    for (const p of paths.slice(0, 4)) await writeFile(p, 'x');
    holder = await startSleeper({ hold: paths[1] as string, marker: ID });
    counter = await spawnCounter(dir);
  });
  afterAll(async () => {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  it.runIf(HAS_PROC)('via /proc: snapshot and lookup spawn nothing, holders spawns one lsof for all paths', async () => {
    const before = (await counter.calls()).length;
    const port = new NodeProcessPort({ env: { PATH: counter.path } });
    const snap = await port.snapshot();
    expect(snap.find((p) => p.pid === holder.pid)?.command).toContain(ID);
    expect(await port.lookup(holder.pid)).not.toBeNull();
    const found = await port.holders(paths);
    expect(found.map((h) => [h.pid, h.path])).toEqual([[holder.pid, paths[1]]]);
    expect((await counter.calls()).slice(before)).toEqual(whichTool('lsof') === null ? [] : ['lsof']);
  });

  it('via ps: a whole check is one ps and one lsof', async () => {
    const before = (await counter.calls()).length;
    const port = new NodeProcessPort({ env: { PATH: counter.path }, useProc: false });
    const snap = await port.snapshot();
    expect(snap.find((p) => p.pid === holder.pid)?.command).toContain(ID);
    expect((await port.holders(paths)).map((h) => h.pid)).toEqual([holder.pid]);
    expect((await counter.calls()).slice(before)).toEqual(['ps', 'lsof']);
  });

  it.runIf(HAS_PROC)('without lsof on PATH, /proc/<pid>/fd gives the same holders with no spawn', async () => {
    const port = new NodeProcessPort({ env: { PATH: '/nonexistent-mam-bin' } });
    const found = await port.holders(paths);
    expect(found).toEqual([{ pid: holder.pid, command: 'node', path: paths[1] }]);
  });

  it('without ps or lsof and without /proc, the port says CommandNotFound', async () => {
    const port = new NodeProcessPort({ env: { PATH: '/nonexistent-mam-bin' }, useProc: false });
    const snapErr = await port.snapshot().catch((e: unknown) => e);
    expect(isPortError(snapErr, 'CommandNotFound')).toBe(true);
    const holdErr = await port.holders(paths).catch((e: unknown) => e);
    expect(isPortError(holdErr, 'CommandNotFound')).toBe(true);
    expect(await port.holders([join(dir, 'missing')])).toEqual([]);
  });
});
