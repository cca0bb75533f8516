// A shell cd'd into one of a Claude or grok conversation's own directories (Claude's file-history/<id>/, session-env/<id>/,
// tasks/<id>/, the tmp <id>/ dir; grok's sessions/<bucket>/<id>/) was not seen as a holder, and the purge went through
// (issue 13: only agy counted its brain/<id>/ dir). Real `sleep` children spawned with their cwd there.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeGrokCwd } from '../../src/agents/grok/grok-encode.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { GROK_IDS, materializeGrokStage } from '../helpers/adapter-grok-stage.js';

let home: string;
const children: ChildProcess[] = [];

function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: home, TMPDIR: join(home, 'tmp') };
  for (const k of Object.keys(env)) if (/SESSION_ID|CONVERSATION_ID|THREAD_ID|^CLAUDE|^GROK/.test(k)) delete env[k];
  return env;
}

async function sleeperIn(cwd: string): Promise<ChildProcess> {
  const child = spawn('sleep', ['60'], { cwd, stdio: 'ignore' });
  children.push(child);
  await new Promise((r) => setTimeout(r, 150));
  return child;
}

function service(): PurgeService {
  const proc = new NodeProcessPort({ env: cleanEnv() });
  return new PurgeService({ ports: { fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new NodeClock() } });
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mam-cwd2-'));
  mkdirSync(join(home, 'tmp'));
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

describe('a shell cd\'d into a Claude conversation dir holds the conversation', () => {
  let id: string;
  let transcript: string;
  beforeEach(() => {
    id = randomUUID();
    const project = join(home, '.claude', 'projects', '-work-repo');
    mkdirSync(project, { recursive: true });
    transcript = join(project, `${id}.jsonl`);
    writeFileSync(transcript, `${JSON.stringify({ type: 'user', sessionId: id, cwd: '/work/repo' })}\n`);
    for (const d of ['file-history', 'session-env', 'tasks']) {
      mkdirSync(join(home, '.claude', d, id, 'sub'), { recursive: true });
      writeFileSync(join(home, '.claude', d, id, 'f.txt'), 'x');
    }
    mkdirSync(join(home, 'tmp', 'claude-1000', '-work-repo', id), { recursive: true });
  });

  it.each([['file-history'], ['session-env'], ['tasks']])('cd\'d into %s/<id>/sub: the purge is refused as in-use and removes nothing', async (dir) => {
    const child = await sleeperIn(join(home, '.claude', dir, id, 'sub'));
    const result = await service().purge('claude', id, { home });
    expect(result.kind).toBe('in-use');
    if (result.kind === 'in-use') expect(result.holders.map((h) => h.pid)).toContain(child.pid);
    expect(existsSync(transcript)).toBe(true);
    for (const d of ['file-history', 'session-env', 'tasks']) expect(existsSync(join(home, '.claude', d, id, 'f.txt'))).toBe(true);
  }, 30_000);

  it('cd\'d into the tmp <id>/ dir: the purge is refused as in-use', async () => {
    const child = await sleeperIn(join(home, 'tmp', 'claude-1000', '-work-repo', id));
    const result = await service().purge('claude', id, { home });
    expect(result.kind).toBe('in-use');
    if (result.kind === 'in-use') expect(result.holders.map((h) => h.pid)).toContain(child.pid);
    expect(existsSync(transcript)).toBe(true);
  }, 30_000);

  it('once the shell has left, the purge goes through', async () => {
    const child = await sleeperIn(join(home, '.claude', 'file-history', id));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const result = await service().purge('claude', id, { home });
    expect(result.kind).toBe('purged');
    expect(existsSync(join(home, '.claude', 'file-history', id))).toBe(false);
    expect(existsSync(transcript)).toBe(false);
  }, 30_000);
});

describe('a shell cd\'d into a grok session dir holds the conversation', () => {
  it('cd\'d into sessions/<bucket>/<id>/: the purge is refused as in-use and removes nothing', async () => {
    const st = materializeGrokStage(home);
    const dir = join(st.grok, 'sessions', encodeGrokCwd(st.wsA) ?? 'x', GROK_IDS.a1);
    expect(existsSync(join(dir, 'summary.json'))).toBe(true);
    const child = await sleeperIn(dir);
    const proc = new NodeProcessPort({ env: { ...cleanEnv(), HOME: st.home } });
    const svc = new PurgeService({ ports: { fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new NodeClock() } });
    const result = await svc.purge('grok', GROK_IDS.a1, { home: st.home });
    expect(result.kind).toBe('in-use');
    if (result.kind === 'in-use') expect(result.holders.map((h) => h.pid)).toContain(child.pid);
    expect(existsSync(join(dir, 'summary.json'))).toBe(true);
  }, 30_000);
});
