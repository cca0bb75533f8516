import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { idOrderPaths } from '../../../src/gate/id-order-paths.js';
import type { CreateResult } from '../../../src/lifecycle/create-result.js';
import type { SessionSpec } from '../../../src/lifecycle/session-spec.js';
import { rowByName } from '../../../src/registry/row-lookup.js';
import { makeRow, UA } from '../../helpers/registry-fixtures.js';
import { type LifecycleKit, lifecycleKit } from '../../helpers/lifecycle-kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const H1 = '0a000001-0000-4000-8000-0000000000a1';
const H2 = '0a000002-0000-4000-8000-0000000000a2';

function created(r: CreateResult): Extract<CreateResult, { kind: 'created' }> {
  if (r.kind !== 'created') throw new Error(`expected created, got ${JSON.stringify(r, null, 1)}`);
  return r;
}

describe('SessionLifecycle.create', () => {
  let k: LifecycleKit;
  beforeEach(async () => {
    k = await lifecycleKit();
  });
  afterEach(async () => {
    await k.dispose();
  });

  it('claude: a new workspace pane, a pre-assigned id on the agent\'s argv, the row registered running with a new created-at and epoch', async () => {
    const r = created(await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'planner,reviewer', herdrServer: 'default', herdrWorkspace: 'lbl-a' }));
    expect(r.id).toMatch(UUID);
    expect(r.onboarding).toMatchObject({ ran: true, ready: true, id: r.id, source: 'pre-assigned' });
    const start = k.herdr.calls.find((c) => c.op === 'agentStart');
    expect(start?.argv).toEqual(['--session', 'default', 'agent', 'start', 'reviewer-claude-01', '--kind', 'claude', '--pane', 'w1:p1', '--', '--session-id', r.id]);
    expect(k.herdr.calls.find((c) => c.op === 'workspaceCreate')?.argv).toEqual(['--session', 'default', 'workspace', 'create', '--cwd', k.ws, '--label', 'lbl-a']);
    const row = rowByName(await k.registry.snapshot(), 'reviewer-claude-01');
    expect(row).toMatchObject({
      status: 'running', agent: 'claude', role: 'planner,reviewer', herdr_server: 'default', herdr_session: 'default', herdr_workspace: 'lbl-a',
      herdr_session_created_at: '2026-01-01T00:00:00Z', herdr_session_epoch: 1_767_225_600, claude_session_id_own: r.id, session_id_source: 'assigned',
      pane: { cwd: k.ws, cmd: 'claude' }, herdr_pane_id: 'w1:p1',
    });
    expect(row?.pane?.pid).toBeGreaterThan(0);
    // Pre-assigned agents do not pass the id-order gate.
    expect(existsSync(join(k.ws, '.mam', 'id-order'))).toBe(false);
  });

  it('replaces: the new instance never shares the created-at of the one it replaces, even within the same second (a reset whose purge removed the row)', async () => {
    const same = created(await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' }, { replaces: '2026-01-01T00:00:00Z' }));
    expect(same.row.herdr_session_created_at).toBe('2026-01-01T00:00:01Z');
    const other = created(await k.life().create({ name: 'reviewer-claude-02', agent: 'claude', role: 'reviewer' }, { replaces: '2025-12-31T23:59:59Z' }));
    expect(other.row.herdr_session_created_at).toBe('2026-01-01T00:00:00Z');
  });

  it('starts the agent under the sanitised name; the row keeps the original name', async () => {
    created(await k.life().create({ name: 'Reviewer Claude #1', agent: 'claude', role: 'reviewer' }));
    const start = k.herdr.calls.find((c) => c.op === 'agentStart');
    expect(start?.argv[4]).toMatch(/^reviewer-claude--1-[0-9a-f]{8}$/);
    expect(rowByName(await k.registry.snapshot(), 'Reviewer Claude #1')?.status).toBe('running');
  });

  it('post-discovered (hermes): passes the gate, starts with no id, captures the new conversation from disk and pins it; the marker goes', async () => {
    k.hermesSession(H2, k.clock.now() / 1000 - 3600);
    k.herdr.onStart = () => k.hermesSession(H1, k.clock.now() / 1000 + 1);
    const r = created(await k.life().create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' }));
    expect(r.id).toBe(H1);
    expect(r.onboarding).toMatchObject({ source: 'disk', id: H1 });
    expect(r.row).toMatchObject({ hermes_conversation_id_own: H1, session_id_source: 'discovered', session_id_verified: true });
    expect(k.herdr.calls.find((c) => c.op === 'agentStart')?.argv).toEqual(['--session', 'default', 'agent', 'start', 'reviewer-hermes-01', '--kind', 'hermes', '--pane', 'w1:p1']);
    const dir = idOrderPaths(k.ws, k.ws).dir;
    expect(readdirSync(dir).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('herdr\'s agent_session is the first evidence, taken only when it verifies on disk', async () => {
    k.herdr.onStart = (a) => {
      k.hermesSession(H1, k.clock.now() / 1000 + 1);
      k.hermesSession(H2, k.clock.now() / 1000 + 2);
      k.herdr.setAgentSession(a.name, { source: 'herdr:hermes', agent: 'hermes', kind: 'id', value: H1.toUpperCase() });
    };
    const r = created(await k.life().create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' }));
    expect(r).toMatchObject({ id: H1, onboarding: { source: 'herdr' } });
  });

  it('an agent_session id that is not on disk is not pinned; two candidates stay ambiguous (no id, the reason said)', async () => {
    const ghost = '0a000009-0000-4000-8000-0000000000a9';
    k.herdr.onStart = (a) => {
      k.hermesSession(H1, k.clock.now() / 1000 + 1);
      k.hermesSession(H2, k.clock.now() / 1000 + 2);
      k.herdr.setAgentSession(a.name, { source: 'herdr:hermes', agent: 'hermes', kind: 'id', value: ghost });
    };
    const r = created(await k.life().create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' }));
    expect(r.id).toBeNull();
    expect(r.onboarding.reason).toBe('herdr reported an id not verified on disk; ambiguous');
    expect(r.row).toMatchObject({ status: 'running', hermes_conversation_id_own: null, session_id_source: 'pending-discovery' });
  });

  it('a failing preflight fails the create with its exit code and makes nothing', async () => {
    // grok's preflight runs `grok --version`; the fake process table has no grok.
    const r = await k.life().create({ name: 'reviewer-grok-01', agent: 'grok', role: 'reviewer' });
    expect(r).toMatchObject({ kind: 'preflight-failed', agent: 'grok', rc: 1 });
    expect(k.herdr.calls).toEqual([]);
    expect((await k.registry.snapshot()).herdr_sessions).toEqual([]);
  });

  it.each([
    [{ name: 'x', agent: 'CLAUDE', role: 'reviewer' }, 'unknown agent'],
    [{ name: 'x', agent: 'claude', role: '  ' }, 'empty or invalid role'],
    [{ name: 'x\nrm', agent: 'claude', role: 'reviewer' }, 'invalid session name'],
    [{ name: 'x', agent: 'claude', role: 'r', herdrServer: 'a b' }, 'invalid herdr server'],
  ])('an uncreatable spec fails at validate and asks herdr nothing (%o)', async (spec, text) => {
    // From plain JS: an agent outside AgentName reaches create() as a string.
    const r = await k.life().create(spec as SessionSpec);
    expect(r.kind === 'failed' && r.step).toBe('validate');
    expect(r.kind === 'failed' && r.error.message).toContain(text);
    expect(k.herdr.calls).toEqual([]);
  });

  it('refuses to create over a running row of the same name', async () => {
    await k.registry.update((d) => void d.herdr_sessions.push(makeRow('reviewer-claude-01', 'claude', k.ws, { ownId: UA })));
    const r = await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' });
    expect(r.kind === 'failed' && [r.step, r.error.code]).toEqual(['validate', 'LIFECYCLE_STEP_FAILED']);
    expect(k.herdr.calls).toEqual([]);
  });

  it('replaces a stopped row in place with a new instance (new created-at even within the same second)', async () => {
    await k.registry.update((d) => {
      d.herdr_sessions.push(makeRow('first', 'codex', k.ws), makeRow('reviewer-claude-01', 'claude', k.ws, { ownId: UA, status: 'stopped', createdAt: '2026-01-01T00:00:00Z' }), makeRow('last', 'codex', k.ws));
    });
    const r = created(await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' }));
    const rows = (await k.registry.snapshot()).herdr_sessions;
    expect(rows.map((x) => x.name)).toEqual(['first', 'reviewer-claude-01', 'last']);
    expect(rows[1]?.herdr_session_created_at).toBe('2026-01-01T00:00:01Z');
    expect(r.id).not.toBe(UA);
  });

  it('reuses an idle shell pane of a workspace with the row\'s label', async () => {
    const seeded = k.herdr.addWorkspace({ cwd: k.ws, label: 'lbl' });
    created(await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrWorkspace: 'lbl' }));
    expect(k.ops()).not.toContain('workspaceCreate');
    expect(k.herdr.calls.find((c) => c.op === 'agentStart')?.argv).toContain(seeded.paneId);
  });

  it('a failed agent start closes the pane it made and registers nothing', async () => {
    k.herdr.addAgent({ name: 'reviewer-claude-01', kind: 'claude', cwd: k.ws, label: 'other' });
    const r = await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrWorkspace: 'lbl' });
    expect(r).toMatchObject({ kind: 'failed', step: 'start', error: { data: { herdrCode: 'agent_name_taken' } }, cleanup: { paneClosed: 'w2:p1' } });
    expect(k.herdr.calls.at(-1)?.argv).toEqual(['--session', 'default', 'pane', 'close', 'w2:p1']);
    expect((await k.registry.snapshot()).herdr_sessions).toEqual([]);
  });

  it('a registry that cannot be written after the start closes the pane (the agent goes with it)', async () => {
    k.herdr.onStart = () => writeFileSync(join(k.ws, '.mam', 'agent-sessions.yaml'), 'herdr_sessions: [unclosed\n');
    const r = await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' });
    expect(r).toMatchObject({ kind: 'failed', step: 'register', cleanup: { paneClosed: 'w1:p1' } });
    expect(k.herdr.state.sessions['default']?.workspaces).toEqual([]);
  });

  it('a server that is not running fails the create at the workspace step', async () => {
    const r = await k.life().create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrServer: 'nowhere' });
    expect(r).toMatchObject({ kind: 'failed', step: 'workspace', error: { data: { herdrCode: 'server_not_running' } } });
  });
});
