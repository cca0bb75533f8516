import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { ownKey } from '../../src/ids/agent-names.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { controlRootRows } from '../../src/registry/control-root-rows.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import { SandboxError } from '../../src/testing/sandbox/sandbox-error.js';
import type { Sandbox, SandboxSessionSpec } from '../../src/testing/sandbox/sandbox-types.js';
import { alive, until } from '../helpers/kit-temp.js';

const SESSIONS: SandboxSessionSpec[] = [
  { name: 'reviewer-claude-01', agent: 'claude', role: 'planner,reviewer' },
  { name: 'coder-codex-01', agent: 'codex', role: 'coder', herdrWorkspace: 'lbl-main' },
  { name: 'OpenCode Worker #1', agent: 'opencode', role: 'coder' },
  { name: 'planner-agy-01', agent: 'agy', role: 'planner', herdrServer: 'srv-two' },
  { name: 'coder-hermes-01', agent: 'hermes', role: 'coder' },
  { name: 'reviewer-grok-01', agent: 'grok', role: 'reviewer' },
];

const temps: string[] = [];
async function temp(tag: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `mam-kit-${tag}-`));
  temps.push(dir);
  return dir;
}

let sb: Sandbox;
const t0 = Math.floor(Date.now() / 1000);
beforeAll(async () => {
  sb = await buildSandbox(await temp('sandbox'), { sessions: SESSIONS });
});
afterAll(async () => {
  await sb?.stopAll();
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

describe('buildSandbox: one session per agent', () => {
  it('lays out home, workspace with .mam/, bin dir (herdr + seven agents), tmp, and an env bound to them', () => {
    expect(readdirSync(sb.binDir).filter((f) => !f.startsWith('.')).sort()).toEqual(['agy', 'claude', 'codex', 'gemini', 'grok', 'herdr', 'hermes', 'opencode']);
    expect(existsSync(join(sb.workspace, '.mam', 'agent-sessions.yaml'))).toBe(true);
    expect(sb.env).toMatchObject({ HOME: sb.home, TMPDIR: sb.tmpDir });
    expect(sb.env['PATH']?.startsWith(`${sb.binDir}:`)).toBe(true);
    expect(sb.context()).toEqual({ workspace: sb.workspace, home: sb.home, env: sb.env });
  });

  it('every session is live in the fake herdr, on its server, its pane process the fake agent', async () => {
    const herdr = sb.ports().herdr;
    for (const s of sb.sessions) {
      const got = await herdr.agentGet(s.herdrName, { session: s.herdrServer });
      expect(got, s.name).toMatchObject({ kind: 'ok', value: { name: s.herdrName, agent: s.agent, pane_id: s.paneId, interactive_ready: true, agent_session: { kind: 'id', value: s.id } } });
      expect(await alive(sb.ports(), s.pid)).toBe(true);
    }
    expect(sb.sessions.find((s) => s.agent === 'opencode')?.herdrName).toMatch(/^opencode-worker--1-[0-9a-f]{8}$/);
    const main = await herdr.workspaceList();
    expect(main.kind === 'ok' && main.value.map((w) => w.label).sort()).toEqual(['coder-hermes-01', 'lbl-main', sb.sessions[2]?.herdrName, 'reviewer-claude-01', 'reviewer-grok-01'].sort());
  });

  it('registers every row running in the control root, herdr coordinates, created_at and epoch, the own id recorded', async () => {
    const state = await sb.registry.snapshot();
    expect(state.herdr_sessions.map((r) => r.name)).toEqual(SESSIONS.map((s) => s.name));
    expect(await controlRootRows(state, sb.workspace, sb.ports().fs)).toHaveLength(SESSIONS.length);
    for (const [i, row] of state.herdr_sessions.entries()) {
      const spec = SESSIONS[i] as SandboxSessionSpec;
      const s = sb.sessions[i];
      const pre = spec.agent === 'claude' || spec.agent === 'grok';
      expect(row).toMatchObject({
        status: 'running', role: spec.role, agent: spec.agent, herdr_server: spec.herdrServer ?? 'default', herdr_session: spec.herdrServer ?? 'default',
        herdr_workspace: spec.herdrWorkspace ?? s?.herdrName, [ownKey(spec.agent)]: s?.id,
        session_id_source: pre ? 'assigned' : 'discovered', session_id_verified: true, pane: { cwd: sb.workspace, pid: s?.pid, cmd: spec.agent },
      });
      expect(row.herdr_session_epoch).toBeGreaterThanOrEqual(t0);
      expect(Date.parse(row.herdr_session_created_at as string)).toBeGreaterThanOrEqual(t0 * 1000);
    }
  });

  it("every conversation is on disk where its adapter looks, newer than its row's epoch, and in use while its agent lives", async () => {
    const state = await sb.registry.snapshot();
    for (const [i, s] of sb.sessions.entries()) {
      const adapter = getAdapter(s.agent, { ports: sb.ports() });
      const ctx = sb.context();
      expect(await adapter.conversationInUse(s.id, ctx), s.name).toBe(true);
      expect(await adapter.verifyArtifact(s.id, ctx, 'verify'), s.name).toBe(true);
      expect(await adapter.discover({ ...ctx, epoch: state.herdr_sessions[i]?.herdr_session_epoch ?? 0 }), s.name).toEqual([s.id]);
    }
  });

  it('end to end: a live conversation refuses a purge; stopped through herdr, it purges', async () => {
    const claude = sb.sessions[0] as Sandbox['sessions'][number];
    const purge = new PurgeService({ ports: sb.ports() });
    const opts = { home: sb.home, workspace: sb.workspace, env: sb.env };
    const refused = await purge.purge('auto', claude.id, opts);
    expect(refused).toMatchObject({ kind: 'in-use', agent: 'claude' });
    expect(refused.kind === 'in-use' && refused.holders.map((h) => h.pid)).toContain(claude.pid);
    const herdr = sb.ports().herdr;
    expect((await herdr.paneSendText(claude.paneId, '/exit')).kind).toBe('ok');
    expect((await herdr.paneSendKeys(claude.paneId, ['enter'])).kind).toBe('ok');
    await until(async () => {
      const r = await herdr.agentGet(claude.herdrName);
      return r.kind === 'error' && r.code === 'agent_not_found';
    }, 5_000, 'the agent to go');
    expect((await herdr.paneClose(claude.paneId)).kind).toBe('ok');
    const done = await purge.purge('auto', claude.id, opts);
    expect(done).toMatchObject({ kind: 'purged', agent: 'claude', inUse: false });
    expect(existsSync(join(sb.home, '.claude', 'projects', claudeProjectKey(sb.workspace), `${claude.id}.jsonl`))).toBe(false);
  });

  it('stopAll leaves no fake agent process behind, and the fake herdr then lists no agent', async () => {
    const r = await sb.stopAll();
    expect(r.survivors).toEqual([]);
    expect([...r.terminated, ...r.killed].sort()).toEqual(sb.sessions.slice(1).map((s) => s.pid).sort());
    for (const s of sb.sessions) expect(await alive(sb.ports(), s.pid)).toBe(false);
    expect(readdirSync(sb.agentsRunDir)).toEqual([]);
    const herdr = sb.ports().herdr;
    for (const server of ['default', 'srv-two']) expect(await herdr.agentList({ session: server })).toEqual({ kind: 'ok', value: [] });
    expect(await sb.stopAll()).toEqual({ terminated: [], killed: [], survivors: [] });
  });
});

describe('buildSandbox refusals', () => {
  it('refuses invalid sessions before touching anything', async () => {
    const dir = join(await temp('bad'), 'sb');
    const bad: Array<[SandboxSessionSpec[], string]> = [
      [[{ name: 'a', agent: 'CLAUDE' as never, role: 'r' }], 'unknown agent'],
      [[{ name: 'a', agent: 'claude', role: ' ' }], 'needs a role'],
      [[{ name: 'a', agent: 'claude', role: 'r' }, { name: 'a', agent: 'codex', role: 'r' }], 'used twice'],
    ];
    for (const [sessions, why] of bad) {
      const err = await buildSandbox(dir, { sessions }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxError);
      expect(err).toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
      expect((err as Error).message).toContain(why);
    }
    await expect(buildSandbox(dir, { startTimeoutMs: 3000 })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
    expect(existsSync(dir)).toBe(false);
  });

  it('never builds over an existing sandbox layout', async () => {
    const dir = await temp('used');
    mkdirSync(join(dir, 'home'));
    await expect(buildSandbox(dir)).rejects.toMatchObject({ code: 'SANDBOX_DIR_NOT_EMPTY' });
  });

  it('a session that fails to start: the error names it and why, and the agents already started are stopped', async () => {
    const dir = await temp('fail');
    const err = await buildSandbox(dir, {
      baseEnv: { ...process.env, MAM_FAKE_CODEX_PREFLIGHT_FAIL: '3' },
      sessions: [{ name: 'first-claude', agent: 'claude', role: 'r' }, { name: 'second-codex', agent: 'codex', role: 'r' }],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect(err).toMatchObject({ code: 'SANDBOX_SESSION_FAILED', data: { name: 'second-codex', agent: 'codex', started: ['first-claude'] } });
    expect((err as Error).message).toContain('codex: preflight failed (MAM_FAKE_CODEX_PREFLIGHT_FAIL=3)');
    const stopped = (err as SandboxError).data['stopped'] as { terminated: number[]; survivors: number[] };
    expect(stopped.terminated).toHaveLength(1);
    expect(stopped.survivors).toEqual([]);
    expect(readdirSync(join(dir, 'bin', '.fake-agents'))).toEqual([]);
  });
});
