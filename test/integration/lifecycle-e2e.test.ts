// End to end against the fake herdr EXECUTABLE and the fake agents (`buildSandbox`): create → stop → purge through real
// processes — herdr spawns each agent in its pane, `/exit` + Enter ends it (a clean exit), `pane close` kills what is left.
// The create-and-stop of one agent per id source (claude pre-assigned, hermes from herdr) goes through the executable; the
// other agents' through the same fake herdr answered in this process (test/helpers/in-process-herdr.ts): a node start
// per herdr call was most of this file's time, and only the transport differs.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateResult } from '../../src/lifecycle/create-result.js';
import type { AgentName } from '../../src/ids/agent-names.js';
import { SessionLifecycle } from '../../src/lifecycle/session-lifecycle.js';
import type { StopResult } from '../../src/lifecycle/stop-result.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import { inProcessHerdr } from '../helpers/in-process-herdr.js';

// A zombie counts as gone: an agent the fake herdr spawned detached is reparented to a pid 1 that may never reap it.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

function created(r: CreateResult): Extract<CreateResult, { kind: 'created' }> {
  if (r.kind !== 'created') throw new Error(`expected created, got ${JSON.stringify(r, null, 1)}`);
  return r;
}

function purged(r: StopResult): Extract<StopResult, { kind: 'purged-and-removed' }> {
  if (r.kind !== 'purged-and-removed') throw new Error(`expected purged-and-removed, got ${JSON.stringify(r, null, 1)}`);
  return r;
}

describe('session lifecycle end to end (fake herdr executable, fake agents)', () => {
  let root: string;
  let sb: Sandbox;
  let life: SessionLifecycle;
  let lifeInProcess: SessionLifecycle;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mam-life-e2e-'));
    sb = await buildSandbox(join(root, 'sb'), { sessions: [{ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' }] });
    const timeouts = { captureMs: 10_000, exitMs: 10_000, readyMs: 10_000, pollMs: 100 };
    life = new SessionLifecycle(sb.workspace, { ports: sb.ports(), home: sb.home, env: sb.env, timeouts });
    lifeInProcess = new SessionLifecycle(sb.workspace, { ports: { ...sb.ports(), herdr: inProcessHerdr(sb) }, home: sb.home, env: sb.env, timeouts });
  }, 60_000);
  afterAll(async () => {
    await sb?.stopAll().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  });

  it('stops a running claude session with purge: the agent exits cleanly, its transcript and session file go, the row goes', async () => {
    const [s] = sb.sessions;
    if (s === undefined) throw new Error('no sandbox session');
    const sessionsDir = join(sb.home, '.claude', 'sessions');
    expect(existsSync(join(sessionsDir, `${s.pid}.json`))).toBe(true);
    const r = purged(await life.stop(s.name, { purge: true, yes: true }));
    expect(r.exit).toMatchObject({ how: 'exited', pane: s.paneId, paneClosed: true });
    expect(r.purge).toMatchObject({ kind: 'purged', agent: 'claude' });
    expect(r.purge?.kind === 'purged' && r.purge.purged.some((p) => p.kind === 'file' && p.path.endsWith(`${s.id}.jsonl`))).toBe(true);
    expect(alive(s.pid)).toBe(false);
    // Removed by the agent's own clean exit, as the real CLI does.
    expect(readdirSync(sessionsDir)).not.toContain(`${s.pid}.json`);
    expect((await sb.registry.snapshot()).herdr_sessions).toEqual([]);
  }, 60_000);

  it.each<[AgentName, string, 'executable' | 'in-process']>([
    ['claude', 'pre-assigned', 'executable'],
    ['hermes', 'herdr', 'executable'],
    ['codex', 'herdr', 'in-process'],
    ['agy', 'herdr', 'in-process'],
    ['opencode', 'herdr', 'in-process'],
    ['grok', 'pre-assigned', 'in-process'],
  ])('creates a %s session (id from %s), then stops it with purge (herdr %s)', async (agent, source, herdr) => {
    const name = `e2e-${agent}-01`;
    const via = herdr === 'executable' ? life : lifeInProcess;
    const c = created(await via.create({ name, agent, role: 'reviewer' }));
    expect(c.id).not.toBeNull();
    expect(c.onboarding).toMatchObject({ ready: true, source, id: c.id });
    expect(c.row).toMatchObject({ status: 'running', agent, herdr_server: 'default' });
    const pid = c.row.pane?.pid;
    expect(typeof pid === 'number' && alive(pid)).toBe(true);
    if (source === 'herdr') expect(c.row).toMatchObject({ session_id_source: 'discovered', session_id_verified: true });

    const r = purged(await via.stop(name, { purge: true, yes: true }));
    expect(r.exit.how).toBe('exited');
    expect(r.id).toBe(c.id);
    expect(r.purge).toMatchObject({ kind: 'purged', agent, residual: [] });
    expect(r.purge?.kind === 'purged' && r.purge.purged.length).toBeGreaterThan(0);
    expect(typeof pid === 'number' && alive(pid)).toBe(false);
    expect((await sb.registry.snapshot()).herdr_sessions.map((x) => x.name)).not.toContain(name);
  }, 60_000);

  it('a purge refused because another process still uses the conversation keeps the row stopped with its id; a later stop purges it', async () => {
    const c = created(await life.create({ name: 'e2e-claude-held', agent: 'claude', role: 'reviewer' }));
    const id = c.id as string;
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '--', '--resume', id], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const r = await life.stop('e2e-claude-held', { purge: true, yes: true });
      if (r.kind !== 'records-preserved') throw new Error(`expected records-preserved, got ${JSON.stringify(r, null, 1)}`);
      expect(r.message).toContain('records preserved');
      expect(r.message).toContain(`holder pid ${holder.pid}`);
      expect(r.exit.how).toBe('exited');
      expect((await sb.registry.snapshot()).herdr_sessions.find((x) => x.name === 'e2e-claude-held')).toMatchObject({ status: 'stopped', claude_session_id_own: id });
      expect(alive(holder.pid as number)).toBe(true);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    const again = purged(await life.stop('e2e-claude-held', { purge: true, yes: true }));
    expect(again.exit.how).toBe('already-gone');
    expect(again.purge).toMatchObject({ kind: 'purged', agent: 'claude' });
  }, 60_000);

  it('a CLI that fails its preflight fails the create before herdr is asked', async () => {
    const failing = new SessionLifecycle(sb.workspace, { ports: sb.ports(), home: sb.home, env: { ...sb.env, MAM_FAKE_GROK_PREFLIGHT_FAIL: '7' } });
    const spyBefore = readFileSync(sb.spyLogPath, 'utf8');
    expect(await failing.create({ name: 'e2e-grok-02', agent: 'grok', role: 'reviewer' })).toMatchObject({ kind: 'preflight-failed', agent: 'grok', rc: 7 }); // the CLI's own exit code
    expect(readFileSync(sb.spyLogPath, 'utf8')).toBe(spyBefore);
  }, 60_000);
});
