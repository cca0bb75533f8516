// The path-taking low-level root exports × the arguments plain JS gets wrong (undefined, a number, '', a relative path, a
// NUL byte): one InvalidArgumentError naming the parameter, thrown before any effect (the temp tree and the current
// directory listed before and after). Paths that come from a store (a removal candidate, a last name, a job id) are only
// type-checked: a bad spelling of them stays the function's value, as the hostile-input tests of those functions expect.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as core from '../../helpers/public-api.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { fault, listing } from '../../helpers/argument-faults.js';

let root: string;
let dispose: () => Promise<void>;
let ws: string;
let cwdBefore: string;
beforeAll(async () => {
  ({ dir: root, dispose } = await makeTempDir('mam-low-level-'));
  ws = join(root, 'ws');
  mkdirSync(ws);
  cwdBefore = process.cwd();
  process.chdir(root);
});
afterAll(async () => {
  process.chdir(cwdBefore);
  await dispose();
});

const fs = new core.NodeFileSystem();
const clock = new core.NodeClock();
const db = (): string => join(root, 'store.sqlite');
const ctx = (over: Record<string, unknown> = {}): never =>
  ({ workspace: ws, home: root, ports: {}, registry: {}, purge: {}, gate: {}, timeouts: {}, env: undefined, ...over }) as never;
const state = (): never => ({ orchestrator_uuids: [] }) as never;
const where = (over: Record<string, unknown> = {}): never => ({ herdrName: 'h', server: 's', cwd: ws, ...over }) as never;
const row = { name: 'coder-codex-01', status: 'running' } as never;

/** `path`: an absolute-path parameter; `type`: only its type is checked (a string, an object, a function). */
type Kind = 'path' | 'type';
const BAD: ReadonlyArray<{ what: string; value: () => unknown; kinds: readonly Kind[] }> = [
  { what: 'undefined', value: () => undefined, kinds: ['path', 'type'] },
  { what: 'a number', value: () => 42, kinds: ['path', 'type'] },
  { what: "''", value: () => '', kinds: ['path'] },
  { what: 'a relative path', value: () => 'relative/path', kinds: ['path'] },
  { what: 'a NUL byte', value: () => `${root}/nul\0byte`, kinds: ['path'] },
];

type Call = (bad: never) => unknown;
const CASES: Array<{ entry: string; param: string; kind: Kind; call: Call }> = [
  { entry: 'openReadonly', param: 'dbPath', kind: 'path', call: (b) => core.openReadonly(b, { fs }) },
  { entry: 'openReadonly', param: 'opts', kind: 'type', call: (b) => core.openReadonly(db(), b) },
  { entry: 'openReadonly', param: 'opts.fs', kind: 'type', call: (b) => core.openReadonly(db(), { fs: b }) },
  { entry: 'withReadonlyDb', param: 'dbPath', kind: 'path', call: (b) => core.withReadonlyDb(b, { fs }, () => 1) },
  { entry: 'withReadonlyDb', param: 'fn', kind: 'type', call: (b) => core.withReadonlyDb(db(), { fs }, b) },
  { entry: 'detectWalState', param: 'fs', kind: 'type', call: (b) => core.detectWalState(b, db()) },
  { entry: 'detectWalState', param: 'dbPath', kind: 'path', call: (b) => core.detectWalState(fs, b) },
  { entry: 'dbRowsNaming', param: 'dbPath', kind: 'path', call: (b) => core.dbRowsNaming(b, 'id', [], [], { fs }) },
  { entry: 'dbRowsNaming', param: 'id', kind: 'type', call: (b) => core.dbRowsNaming(db(), b, [], [], { fs }) },
  { entry: 'dbRowsNaming', param: 'columns', kind: 'type', call: (b) => core.dbRowsNaming(db(), 'id', b, [], { fs }) },
  { entry: 'dbRowsNaming', param: 'idTables', kind: 'type', call: (b) => core.dbRowsNaming(db(), 'id', [], b, { fs }) },
  { entry: 'dbRowsNaming', param: 'opts', kind: 'type', call: (b) => core.dbRowsNaming(db(), 'id', [], [], b) },
  { entry: 'dbWriteRefusal', param: 'fs', kind: 'type', call: (b) => core.dbWriteRefusal(b, db()) },
  { entry: 'dbWriteRefusal', param: 'dbPath', kind: 'path', call: (b) => core.dbWriteRefusal(fs, b) },
  { entry: 'writeFileAtomic', param: 'fs', kind: 'type', call: (b) => core.writeFileAtomic(b, join(root, 'w.json'), 'x') },
  { entry: 'writeFileAtomic', param: 'path', kind: 'path', call: (b) => core.writeFileAtomic(fs, b, 'x') },
  { entry: 'writeFileAtomic', param: 'data', kind: 'type', call: (b) => core.writeFileAtomic(fs, join(root, 'w.json'), b) },
  { entry: 'acquireLock', param: 'lockPath', kind: 'path', call: (b) => core.acquireLock(b, { clock }) },
  { entry: 'acquireLock', param: 'opts', kind: 'type', call: (b) => core.acquireLock(join(root, 'l.lock'), b) },
  { entry: 'acquireLock', param: 'opts.clock', kind: 'type', call: (b) => core.acquireLock(join(root, 'l.lock'), { clock: b }) },
  { entry: 'tryLock', param: 'lockPath', kind: 'path', call: (b) => core.tryLock(b) },
  { entry: 'withLock', param: 'lockPath', kind: 'path', call: (b) => core.withLock(b, { clock }, () => 1) },
  { entry: 'withLock', param: 'fn', kind: 'type', call: (b) => core.withLock(join(root, 'l.lock'), { clock }, b) },
  { entry: 'removeConfined', param: 'fs', kind: 'type', call: (b) => core.removeConfined(b, ws, join(ws, 'x')) },
  { entry: 'removeConfined', param: 'root', kind: 'path', call: (b) => core.removeConfined(fs, b, join(ws, 'x')) },
  { entry: 'removeConfined', param: 'candidate', kind: 'type', call: (b) => core.removeConfined(fs, ws, b) },
  { entry: 'removeDirKeepingLast', param: 'root', kind: 'path', call: (b) => core.removeDirKeepingLast(fs, b, join(ws, 'j'), 'state.json') },
  { entry: 'removeDirKeepingLast', param: 'dir', kind: 'type', call: (b) => core.removeDirKeepingLast(fs, ws, b, 'state.json') },
  { entry: 'removeDirKeepingLast', param: 'lastName', kind: 'type', call: (b) => core.removeDirKeepingLast(fs, ws, join(ws, 'j'), b) },
  { entry: 'confinedCheck', param: 'root', kind: 'path', call: (b) => core.confinedCheck(fs, b, join(ws, 'x')) },
  { entry: 'confinedCheck', param: 'candidate', kind: 'type', call: (b) => core.confinedCheck(fs, ws, b) },
  { entry: 'cleanStaleTemps', param: 'dir', kind: 'path', call: (b) => core.cleanStaleTemps(fs, b, 'target.json') },
  { entry: 'cleanStaleTemps', param: 'base', kind: 'type', call: (b) => core.cleanStaleTemps(fs, ws, b) },
  { entry: 'registryPaths', param: 'workspace', kind: 'path', call: (b) => core.registryPaths(b) },
  { entry: 'idOrderPaths', param: 'workspace', kind: 'path', call: (b) => core.idOrderPaths(b, ws) },
  { entry: 'idOrderPaths', param: 'realCwd', kind: 'path', call: (b) => core.idOrderPaths(ws, b) },
  { entry: 'artifactPath', param: 'a', kind: 'type', call: (b) => core.artifactPath(b) },
  { entry: 'readJobRecord', param: 'fs', kind: 'type', call: (b) => core.readJobRecord(b, ws, 'job-20261130T014900Z-1a2b3c4d') },
  { entry: 'readJobRecord', param: 'registryDir', kind: 'path', call: (b) => core.readJobRecord(fs, b, 'job-20261130T014900Z-1a2b3c4d') },
  { entry: 'readJobRecord', param: 'jobId', kind: 'type', call: (b) => core.readJobRecord(fs, ws, b) },
  { entry: 'listJobIds', param: 'registryDir', kind: 'path', call: (b) => core.listJobIds(fs, b) },
  { entry: 'createSession', param: 'c', kind: 'type', call: (b) => core.createSession(b, { name: 'a', agent: 'claude', role: 'r' }) },
  { entry: 'createSession', param: 'c.workspace', kind: 'path', call: (b) => core.createSession(ctx({ workspace: b }), { name: 'a', agent: 'claude', role: 'r' }) },
  { entry: 'createSession', param: 'c.home', kind: 'path', call: (b) => core.createSession(ctx({ home: b }), { name: 'a', agent: 'claude', role: 'r' }) },
  { entry: 'createSession', param: 'input', kind: 'type', call: (b) => core.createSession(ctx(), b) },
  { entry: 'onboardSession', param: 'c', kind: 'type', call: (b) => core.onboardSession(b, 'codex', row, where()) },
  { entry: 'onboardSession', param: 'agent', kind: 'type', call: (b) => core.onboardSession(ctx(), b, row, where()) },
  { entry: 'onboardSession', param: 'row', kind: 'type', call: (b) => core.onboardSession(ctx(), 'codex', b, where()) },
  { entry: 'onboardSession', param: 'where', kind: 'type', call: (b) => core.onboardSession(ctx(), 'codex', row, b) },
  { entry: 'onboardSession', param: 'where.cwd', kind: 'path', call: (b) => core.onboardSession(ctx(), 'codex', row, where({ cwd: b })) },
  { entry: 'stopSession', param: 'c', kind: 'type', call: (b) => core.stopSession(b, 'a') },
  { entry: 'stopSession', param: 'c.workspace', kind: 'path', call: (b) => core.stopSession(ctx({ workspace: b }), 'a') },
  { entry: 'stopSession', param: 'name', kind: 'type', call: (b) => core.stopSession(ctx(), b) },
  { entry: 'listOrchestrators', param: 'state', kind: 'type', call: (b) => core.listOrchestrators(b) },
  { entry: 'addOrchestrator', param: 'draft', kind: 'type', call: (b) => core.addOrchestrator(b, '6f1c8a52-1d4e-4b8a-9d3c-2a7e5b9c0d11') },
  { entry: 'addOrchestrator', param: 'id', kind: 'type', call: (b) => core.addOrchestrator(state(), b) },
  { entry: 'removeOrchestrator', param: 'draft', kind: 'type', call: (b) => core.removeOrchestrator(b, 'x') },
  { entry: 'removeOrchestrator', param: 'id', kind: 'type', call: (b) => core.removeOrchestrator(state(), b) },
];

const ROWS = CASES.flatMap((c) => BAD.filter((b) => b.kinds.includes(c.kind)).map((b) => ({ ...c, what: b.what, value: b.value })));


describe('INVALID_ARGUMENT at every path-taking low-level export', () => {
  it.each(ROWS)('$entry with $param = $what', async ({ call, value, param }) => {
    const before = listing(root);
    const err = await fault(() => call(value() as never));
    expect(err, 'a typed fault, not a TypeError or a result').toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
    expect((err as InvalidArgumentError).data.param).toBe(param);
    expect(listing(root)).toEqual(before);
    expect(existsSync(resolve('relative'))).toBe(false);
  });

  it('covers every export the brief names', () => {
    const covered = new Set(CASES.map((c) => c.entry));
    for (const name of ['openReadonly', 'withReadonlyDb', 'detectWalState', 'dbRowsNaming', 'dbWriteRefusal', 'writeFileAtomic', 'acquireLock', 'tryLock', 'withLock', 'removeConfined', 'removeDirKeepingLast', 'confinedCheck', 'cleanStaleTemps', 'registryPaths', 'idOrderPaths', 'artifactPath', 'readJobRecord', 'listJobIds', 'createSession', 'onboardSession', 'stopSession', 'addOrchestrator', 'removeOrchestrator', 'listOrchestrators']) {
      expect(covered, name).toContain(name);
    }
  });
});

describe('what stays a value (bad stores and store-given paths, not bad arguments)', () => {
  it('good arguments pass the check: a missing store is the function’s own answer', async () => {
    expect(await core.dbRowsNaming(db(), 'id', ['thread_id'], ['threads'], { fs })).toEqual([]);
    expect(await core.dbWriteRefusal(fs, db())).toMatch(/could not be checked/);
    await expect(core.openReadonly(db(), { fs })).rejects.toMatchObject({ code: 'NotFound' });
    expect(await core.listJobIds(fs, join(root, 'no-jobs'))).toEqual([]);
    expect(core.registryPaths(ws).dir).toBe(join(ws, '.mam'));
    expect(core.artifactPath({ kind: 'rows', db: db(), table: 't', column: 'id', count: 1 })).toBe(db());
    expect(core.listOrchestrators({ orchestrator_uuids: ['a'] } as never)).toEqual(['a']);
  });

  it('a relative, empty or NUL removal candidate or last name stays a residual / outside, as before', async () => {
    for (const c of ['relative/path', '', `${ws}/x\0y`]) {
      expect((await core.removeConfined(fs, ws, c)).removed).toEqual([]);
      expect(await core.confinedCheck(fs, ws, c)).toEqual({ kind: 'outside' });
    }
    for (const last of ['', '..', 'a/b']) expect((await core.removeDirKeepingLast(fs, ws, join(ws, 'j'), last)).residual).toEqual([join(ws, 'j')]);
  });

  it('a malformed orchestrator id string is still an InvalidIdError', () => {
    expect(() => core.addOrchestrator({ orchestrator_uuids: [] } as never, 'not-an-id')).toThrow(core.InvalidIdError);
  });
});
