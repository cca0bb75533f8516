// A process whose cwd is inside the conversation's directories (a shell cd'd into agy's brain/<id>/) was not seen as a
// holder, and the purge went through (issue 13). Real `sleep` children spawned with their cwd there; the lsof answer
// and the /proc/<pid>/cwd fallback (no lsof on PATH) alike.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';

let home: string;
let id: string;
let brain: string;
const children: ChildProcess[] = [];

function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (/SESSION_ID|CONVERSATION_ID|THREAD_ID/.test(k)) delete env[k];
  return { ...env, ...extra };
}

async function sleeperIn(cwd: string): Promise<ChildProcess> {
  const child = spawn('sleep', ['60'], { cwd, stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => setTimeout(r, 150));
  return child;
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mam-cwd-'));
  id = randomUUID();
  const root = join(home, '.gemini', 'antigravity-cli');
  brain = join(root, 'brain', id);
  mkdirSync(join(brain, 'notes'), { recursive: true });
  writeFileSync(join(brain, 'plan.md'), 'x');
  mkdirSync(join(root, 'conversations'), { recursive: true });
  writeFileSync(join(root, 'conversations', `${id}.db`), 'x');
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('a shell cd\'d into a conversation dir holds the conversation', () => {
  it.each([
    ['lsof', {}],
    ['/proc/<pid>/cwd (no lsof on PATH)', { PATH: '/nonexistent' }],
  ] as const)('via %s: agy purge is refused as in-use and removes nothing', async (_how, extra) => {
    if (Object.keys(extra).length > 0 && !existsSync('/proc/self/cwd')) return;
    const child = await sleeperIn(join(brain, 'notes'));
    const proc = new NodeProcessPort({ env: cleanEnv(extra) });
    const held = await proc.holders([brain]);
    expect(held.map((h) => h.pid)).toContain(child.pid);
    const service = new PurgeService({ ports: { fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new NodeClock() } });
    const result = await service.purge('agy', id, { home });
    expect(result.kind).toBe('in-use');
    if (result.kind === 'in-use') expect(result.holders.map((h) => h.pid)).toContain(child.pid);
    expect(existsSync(join(brain, 'plan.md'))).toBe(true);
  }, 30_000);

  it('once the shell has left, the purge goes through', async () => {
    const child = await sleeperIn(brain);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const service = new PurgeService({ ports: { fs: new NodeFileSystem(), proc: new NodeProcessPort({ env: cleanEnv() }), herdr: new FakeHerdr(), clock: new NodeClock() } });
    const result = await service.purge('agy', id, { home });
    expect(result.kind).toBe('purged');
    expect(existsSync(brain)).toBe(false);
  }, 30_000);
});
