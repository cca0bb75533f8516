import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { strs } from '../helpers/artifact-strings.js';

let home: string;
let id: string;
const children: ChildProcess[] = [];

// The process env without any session variable, so the test runner's own session (if any) cannot refuse.
function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (/SESSION_ID|CONVERSATION_ID|CODEX_THREAD_ID/.test(k)) delete env[k];
  return { ...env, ...extra };
}

function service(env = cleanEnv()): PurgeService {
  return new PurgeService({ ports: { fs: new NodeFileSystem(), proc: new NodeProcessPort({ env }), herdr: new FakeHerdr(), clock: new NodeClock() } });
}

function agyTree(): Record<string, string> {
  const root = join(home, '.gemini', 'antigravity-cli');
  const paths = {
    db: join(root, 'conversations', `${id}.db`),
    wal: join(root, 'conversations', `${id}.db-wal`),
    shm: join(root, 'conversations', `${id}.db-shm`),
    brain: join(root, 'brain', id),
    annotation: join(root, 'annotations', `${id}.pbtxt`),
    lock: join(root, 'presence', `${id}.lock`),
  };
  for (const [k, p] of Object.entries(paths)) {
    mkdirSync(k === 'brain' ? p : join(p, '..'), { recursive: true });
    if (k !== 'brain') writeFileSync(p, 'x');
    else writeFileSync(join(p, 'plan.md'), 'x');
  }
  return paths;
}

function holder(args: string[], env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mam-purge-'));
  id = randomUUID();
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('PurgeService', () => {
  it('auto resolves agy from disk and removes all six items', async () => {
    const paths = agyTree();
    const result = await service().purge('auto', id, { home });
    expect(result).toMatchObject({ kind: 'purged', agent: 'agy', residual: [], inUse: false });
    expect(result.kind === 'purged' && result.purged.length).toBe(6);
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(false);
  });

  it('resolves agy from orphaned leftovers (no DB) and purges them', async () => {
    const paths = agyTree();
    rmSync(paths.db as string);
    rmSync(paths.shm as string);
    rmSync(paths.brain as string, { recursive: true });
    const result = await service().purge('auto', id, { home });
    expect(result.kind === 'purged' && strs(result.purged).sort()).toEqual([paths.annotation, paths.lock, paths.wal].sort());
  });

  it('says unresolved when no adapter has an artifact', async () => {
    expect(await service().purge('auto', id, { home })).toEqual({ kind: 'unresolved', agent: null });
  });

  it.each(['memory', 'notes', '../x', '/etc'])('reaches nothing for the implausible id %j', async (bad) => {
    agyTree();
    expect(await service().purge('auto', bad, { home })).toEqual({ kind: 'unresolved', agent: null });
    expect(await service().purge('claude', bad, { home })).toEqual({ kind: 'unresolved', agent: null });
  });

  // The empty id is an argument error now (INVALID_ARGUMENT), not an unresolved purge; it still reaches nothing.
  it('refuses the empty id as an invalid argument, reaching nothing', async () => {
    const paths = agyTree();
    await expect(service().purge('auto', '', { home })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', data: { param: 'id' } });
    await expect(service().purge('claude', '', { home })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', data: { param: 'id' } });
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(true);
  });

  it('lists a holder once when it both names the id and holds two of its files open', async () => {
    const paths = agyTree();
    const script = 'const fs = require("fs"); const a = fs.openSync(process.argv[1], "r"); const b = fs.openSync(process.argv[2], "r"); console.log("ready", a, b); setInterval(() => {}, 1e6)';
    const child = await holder(['-e', script, paths.db ?? '', paths.wal ?? '', '--conversation', id]);
    const result = await service().purge('agy', id, { home });
    expect(result.kind === 'in-use' && result.holders.filter((h) => h.pid === child.pid)).toHaveLength(1);
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(true);
  });

  it('refuses while a real process names the id, removing nothing, with holder and hints', async () => {
    const paths = agyTree();
    const child = await holder(['-e', 'console.log("ready"); setInterval(() => {}, 1e6)', '--', '--conversation', id]);
    const result = await service().purge('agy', id.toUpperCase(), { home });
    expect(result).toMatchObject({ kind: 'in-use', agent: 'agy', inUse: true });
    expect(result.kind === 'in-use' && result.holders.map((h) => h.pid)).toContain(child.pid);
    expect(result.kind === 'in-use' && result.hints.join('\n')).toContain(`ps -axww | grep ${id}`);
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(true);
  });

  it('refuses while only the presence lock is held open (the id on no command line)', async () => {
    const paths = agyTree();
    await holder(['-e', 'require("fs").openSync(process.env.MAM_TEST_LOCK, "r"); console.log("ready"); setInterval(() => {}, 1e6)'], { MAM_TEST_LOCK: paths.lock as string });
    expect(await service().purge('auto', id, { home })).toMatchObject({ kind: 'in-use' });
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(true);
  });

  it("refuses from the session's own shell (its session variable names the id)", async () => {
    const paths = agyTree();
    const result = await service(cleanEnv({ ANTIGRAVITY_CONVERSATION_ID: id })).purge('agy', id, { home });
    expect(result).toMatchObject({ kind: 'in-use' });
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(true);
  });
});
