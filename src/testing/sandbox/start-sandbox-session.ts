import { randomUUID } from 'node:crypto';
import { sanitizeHerdrAgentName } from '../../herdr/sanitize.js';
import { ownKey } from '../../ids/agent-names.js';
import type { Ports } from '../../ports/index.js';
import type { HerdrResult } from '../../ports/herdr.js';
import { pinRow } from '../../registry/pin-row.js';
import type { SessionRegistry } from '../../registry/session-registry.js';
import type { SessionRow } from '../../registry/session-row.js';
import { SandboxError } from './sandbox-error.js';
import type { SandboxSession, SandboxSessionSpec } from './sandbox-types.js';

/**
 * What starting one sandbox session needs.
 * @public
 */
export interface SandboxSessionDeps {
  ports: Ports;
  registry: SessionRegistry;
  workspace: string;
  timeoutMs: number;
  /** Where the fake herdr keeps spawned agents' stderr (quoted in a failure). */
  agentOutputDir: string;
}

const PRE_ASSIGNED = new Set(['claude', 'grok']);

function fail(spec: SandboxSessionSpec, what: string, data: Record<string, unknown> = {}): SandboxError {
  return new SandboxError('SANDBOX_SESSION_FAILED', `sandbox session ${JSON.stringify(spec.name)} (${spec.agent}): ${what}`, { name: spec.name, agent: spec.agent, ...data });
}

function ok<T>(spec: SandboxSessionSpec, step: string, r: HerdrResult<T>): T {
  if (r.kind === 'ok') return r.value;
  const why = r.kind === 'error' ? `${r.code}: ${r.message}` : `${r.message} ${r.stderr}`.trim();
  throw fail(spec, `herdr ${step} failed (${why})`, { step, result: r });
}

// The agent's own complaint, when it died: the last lines of the stderr file the fake herdr kept for its pane.
async function stderrTail(deps: SandboxSessionDeps, terminalId: string): Promise<string> {
  const names = (await deps.ports.fs.readdir(deps.agentOutputDir).catch(() => []))
    .map((e) => e.name)
    .filter((n) => n.startsWith(`${terminalId}-`) && n.endsWith('.err'))
    .sort();
  const last = names[names.length - 1];
  if (last === undefined) return '';
  const text = await deps.ports.fs.readText(`${deps.agentOutputDir}/${last}`).catch(() => '');
  return text.trim().split('\n').slice(-5).join('\n');
}

async function reportedId(deps: SandboxSessionDeps, spec: SandboxSessionSpec, herdrName: string, server: string, deadline: number): Promise<string> {
  const { herdr, clock } = deps.ports;
  for (;;) {
    const r = await herdr.agentGet(herdrName, { session: server });
    if (r.kind === 'ok' && r.value.agent_session?.kind === 'id') return r.value.agent_session.value;
    if (r.kind === 'error' && r.code === 'agent_not_found') throw fail(spec, 'the agent exited before it reported its conversation id');
    if (clock.monotonic() >= deadline) throw fail(spec, 'the agent did not report its conversation id in time');
    await clock.sleep(25);
  }
}

/**
 * Starts one session the way the session lifecycle does: a herdr workspace in the sandbox workspace, `agent start` under the
 * sanitised name (a pre-assigned id for claude and grok), the row registered `running` (pane, herdr coordinates, created_at,
 * epoch), then the agent's reported id recorded on the row (pinned for a post-discovered agent).
 * @public
 */
export async function startSandboxSession(deps: SandboxSessionDeps, spec: SandboxSessionSpec): Promise<SandboxSession> {
  const { herdr, clock } = deps.ports;
  const deadline = clock.monotonic() + deps.timeoutMs;
  const herdrName = sanitizeHerdrAgentName(spec.name);
  const server = spec.herdrServer ?? 'default';
  const label = spec.herdrWorkspace ?? herdrName;
  const call = { session: server };
  const startedAt = clock.now();
  const created = ok(spec, 'workspace create', await herdr.workspaceCreate({ cwd: deps.workspace, label }, call));
  const paneId = created.root_pane.pane_id;
  const pre = PRE_ASSIGNED.has(spec.agent) ? randomUUID() : null;
  const start = await herdr.agentStart(herdrName, { kind: spec.agent, pane: paneId, timeoutMs: deps.timeoutMs, argv: pre === null ? [] : ['--session-id', pre] }, call);
  if (start.kind !== 'ok') {
    const tail = await stderrTail(deps, created.root_pane.terminal_id);
    ok(spec, `agent start${tail === '' ? '' : ` — the agent said: ${tail}`}`, start);
  }
  const info = ok(spec, 'pane process-info', await herdr.paneProcessInfo(paneId, call));
  const pid = info.foreground_processes?.[0]?.pid;
  if (pid === undefined) throw fail(spec, 'herdr shows no process in its pane');
  const key = ownKey(spec.agent);
  const row: SessionRow = {
    name: spec.name, status: 'running', role: spec.role, agent: spec.agent,
    herdr_session: server, herdr_server: server, herdr_workspace: label,
    herdr_session_created_at: new Date(startedAt).toISOString(), herdr_session_epoch: Math.floor(startedAt / 1000),
    [key]: pre, session_id_source: pre === null ? 'pending-discovery' : 'assigned', session_id_verified: false,
    pane: { cwd: deps.workspace, pid, cmd: spec.agent },
  };
  await deps.registry.update((draft) => {
    draft.herdr_sessions.push(row);
  });
  const id = await reportedId(deps, spec, herdrName, server, deadline);
  if (pre !== null && id !== pre) throw fail(spec, `the agent reported ${id}, not its pre-assigned id ${pre}`);
  await deps.registry.update((draft) => {
    if (pre === null) pinRow(draft, spec.name, id);
    else for (const r of draft.herdr_sessions) if (r.name === spec.name) r.session_id_verified = true;
  });
  return { name: spec.name, agent: spec.agent, role: spec.role, herdrName, herdrServer: server, herdrWorkspace: label, workspaceId: created.workspace.workspace_id, paneId, pid, id };
}
