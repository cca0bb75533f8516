// The codex in-use check against REAL processes: a command line naming the id (either spelling), a holder of the writer
// lock (flock) or of the rollout with the id on no command line, the caller's own session variables — and a holder of
// the shared databases, which proves nothing about one thread. One check costs at most two spawns (ps + lsof).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import { SESSION_ENV_VARS } from '../../../../src/ids/agent-names.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { NodeProcessPort } from '../../../../src/node/node-process.js';
import { buildCodexHome, codexDir, freshV7, rolloutPath, type ThreadSpec } from '../../../helpers/adapter-codex-home.js';
import { startChild, startSleeper, stopAll, type TestChild } from '../../../helpers/proc-children.js';
import { spawnCounter, whichTool } from '../../../helpers/proc-spawn-counter.js';
import { tsChildArgs } from '../../../helpers/ts-child.js';

// The child of 'a real child computes it…', run from its bundle (a plain node start, not tsx's).
const CHILD = join(import.meta.dirname, '../../../helpers/codex-in-use-child.ts');
const HAS_FLOCK = spawnSync('sh', ['-c', 'command -v flock'], { stdio: 'ignore' }).status === 0;
const HAS_LSOF = whichTool('lsof') !== null;
const roots: string[] = [];
afterEach(stopAll);
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function home(): { ctx: HomeDiscoveryContext; t: ThreadSpec; dir: string; homeDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-use-'));
  roots.push(root);
  const homeDir = join(root, 'home');
  const t: ThreadSpec = { id: freshV7(), cwd: join(root, 'ws'), updated: 2_000_000_000 };
  buildCodexHome(homeDir, [t]);
  return { ctx: { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: codexDir(homeDir) } }, t, dir: codexDir(homeDir), homeDir };
}

// Takes the lock the way Codex does (an exclusive flock) and names the conversation nowhere: the path travels in the env.
function flockHolder(lock: string): Promise<TestChild> {
  if (!HAS_FLOCK) return startSleeper({ hold: lock });
  return startChild('sh', ['-c', 'exec 9<>"$MAM_TEST_LOCK" && flock -x 9 && echo ready && exec sleep 60'], { env: { ...process.env, MAM_TEST_LOCK: lock } });
}

const adapter = getAdapter('codex');

describe('codex conversationInUse with real processes', () => {
  it('is false with nothing running, true for a process naming the id, false again once it is gone', async () => {
    const { ctx, t } = home();
    expect(await adapter.conversationInUse(t.id, ctx)).toBe(false);
    const holder = await startSleeper({ marker: t.id });
    const holders = await adapter.inUseHolders(t.id, ctx);
    expect(holders.map((h) => [h.pid, h.signal])).toEqual([[holder.pid, 'command-line']]);
    await stopAll();
    expect(await adapter.conversationInUse(t.id, ctx)).toBe(false);
  });

  it('an upper-case id is the live lower-case conversation (and the reverse)', async () => {
    const { ctx, t } = home();
    await startSleeper({ marker: t.id });
    expect(await adapter.conversationInUse(t.id.toUpperCase(), ctx)).toBe(true);
    await stopAll();
    await startSleeper({ marker: t.id.toUpperCase() });
    expect(await adapter.conversationInUse(t.id, ctx)).toBe(true);
  });

  it.runIf(HAS_LSOF || process.platform === 'linux')('a process holding the writer lock (flock) with the id on no command line', async () => {
    const { ctx, t, dir } = home();
    const lock = join(dir, 'thread-writer-locks', `${t.id}.lock`);
    const holder = await flockHolder(lock);
    if (HAS_FLOCK) expect(spawnSync('flock', ['-n', lock, 'true']).status).toBe(1);
    const holders = await adapter.inUseHolders(t.id, ctx);
    expect(holders).toEqual([expect.objectContaining({ pid: holder.pid, signal: 'open-file', detail: lock })]);
  });

  it.runIf(HAS_LSOF || process.platform === 'linux')('a process keeping the rollout open', async () => {
    const { ctx, t, homeDir } = home();
    const holder = await startSleeper({ hold: rolloutPath(homeDir, t) });
    expect(await adapter.inUseHolders(t.id, ctx)).toEqual([expect.objectContaining({ pid: holder.pid, signal: 'open-file', detail: rolloutPath(homeDir, t) })]);
  });

  it('a process holding the shared state DB does not make this thread live', async () => {
    const { ctx, t, dir } = home();
    await startSleeper({ hold: join(dir, 'state_5.sqlite') });
    expect(await adapter.conversationInUse(t.id, ctx)).toBe(false);
  });

  it.each(['CODEX_THREAD_ID', 'CODEX_SESSION_ID'])('the caller\'s own %s (a purge run from the thread\'s tool shell)', async (name) => {
    const { ctx, t } = home();
    const own = getAdapter('codex', { ports: { proc: new NodeProcessPort({ env: { ...process.env, [name]: t.id.toUpperCase() } }) } });
    expect(await own.inUseHolders(t.id, ctx)).toEqual([expect.objectContaining({ pid: process.pid, signal: 'session-env', detail: name })]);
    expect(own.sessionEnvVar).toBe('CODEX_THREAD_ID');
  });

  it('a real child computes it from its own environment', async () => {
    const { ctx, t } = home();
    // The runner may itself sit in an agent's tool shell: its session variables must not leak into the child.
    const base: NodeJS.ProcessEnv = { ...process.env };
    for (const name of SESSION_ENV_VARS) delete base[name];
    const run = (extra: Record<string, string>) =>
      spawnSync(process.execPath, tsChildArgs(CHILD), { encoding: 'utf8', env: { ...base, MAM_CTX: JSON.stringify(ctx), MAM_ID: t.id, ...extra } });
    expect(run({}).stdout.trim()).toBe('false');
    expect(run({ CODEX_THREAD_ID: t.id }).stdout.trim()).toBe('true');
    expect(run({ CODEX_SESSION_ID: t.id.toUpperCase() }).stdout.trim()).toBe('true');
  });

  it('one check is at most two spawns (ps + lsof), however many paths it asks about', async () => {
    const { ctx, t } = home();
    const spawnDir = mkdtempSync(join(tmpdir(), 'mam-codex-spawn-'));
    roots.push(spawnDir);
    const counter = await spawnCounter(spawnDir);
    const modes: Array<[boolean, string[]]> = [[false, HAS_LSOF ? ['ps', 'lsof'] : ['ps']]];
    if (existsSync('/proc/self/stat')) modes.push([true, HAS_LSOF ? ['lsof'] : []]);
    for (const [useProc, want] of modes) {
      const before = (await counter.calls()).length;
      const a = getAdapter('codex', { ports: { proc: new NodeProcessPort({ env: { PATH: counter.path }, useProc }) } });
      await a.conversationInUse(t.id, ctx);
      expect((await counter.calls()).slice(before)).toEqual(want);
    }
  });
});
