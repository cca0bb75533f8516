import { basename } from 'node:path';
import type { AgentName } from '../ids/agent-names.js';
import { agentsOf, type RegistryAgentsOption } from '../registry/registry-agents.js';

/**
 * What a session is created from: a row's identity (name, agent, role) and where it runs (herdr server and workspace
 * label, cwd). The reset run passes a saved row's fields; a new session may leave the herdr fields to their defaults.
 * @public
 */
export interface SessionSpec<Extra extends string = never> {
  /** The row name (1 to 256 characters, no control characters); herdr's agent name is its sanitised form. */
  name: string;
  /**
   * The agent, one of {@link AGENT_NAMES} or of the outside agents the lifecycle was given; anything else (from plain
   * JS) makes the spec uncreatable.
   */
  agent: AgentName | Extra;
  /** The row's role, e.g. `reviewer`; must not be empty. */
  role: string;
  /** herdr server (session); default `default` (the row's `herdr_server`). */
  herdrServer?: string;
  /** herdr workspace label; default the cwd's base name (the row's `herdr_workspace`). */
  herdrWorkspace?: string;
  /** The session's cwd; default the lifecycle's workspace. */
  cwd?: string;
}

/**
 * A {@link SessionSpec} with every default filled in and the agent checked.
 * @public
 */
export interface ResolvedSessionSpec<Extra extends string = never> {
  /** The row name. */
  name: string;
  /** The agent, checked. */
  agent: AgentName | Extra;
  /** The role, trimmed. */
  role: string;
  /** The herdr server (session) the pane is made on. */
  herdrServer: string;
  /** The herdr workspace label. */
  herdrWorkspace: string;
  /** The session's cwd. */
  cwd: string;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * herdr's rule for a session (server) name — 1 to 64 of `[A-Za-z0-9._-]`, not `.` or `..` — plus no leading `-`, so the
 * name can never be read as an option of the herdr command line.
 * @public
 */
export function isHerdrServerName(name: unknown): name is string {
  return typeof name === 'string' && /^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/.test(name) && name !== '.' && name !== '..';
}

/**
 * The spec with its defaults, or the problem that makes it uncreatable (an unknown or non-canonical agent, an empty
 * role, a name or label with control characters, a server name herdr would reject); `opts.agents` are the outside
 * agents it may name.
 * @public
 */
export function resolveSessionSpec<Extra extends string = never>(
  spec: SessionSpec<Extra>,
  workspace: string,
  opts: RegistryAgentsOption<Extra> = {},
): { ok: true; spec: ResolvedSessionSpec<Extra> } | { ok: false; problem: string } {
  const name = typeof spec.name === 'string' ? spec.name : '';
  if (name === '' || name.length > 256 || CONTROL.test(name)) return { ok: false, problem: `invalid session name ${JSON.stringify(spec.name)}` };
  if (!agentsOf(opts).knows(spec.agent)) return { ok: false, problem: `unknown agent ${JSON.stringify(spec.agent)} for ${JSON.stringify(name)}` };
  const role = typeof spec.role === 'string' ? spec.role.trim() : '';
  if (role === '' || CONTROL.test(role)) return { ok: false, problem: `empty or invalid role for ${JSON.stringify(name)}` };
  const server = spec.herdrServer ?? 'default';
  if (!isHerdrServerName(server)) return { ok: false, problem: `invalid herdr server ${JSON.stringify(server)}` };
  const cwd = spec.cwd ?? workspace;
  if (cwd === '' || CONTROL.test(cwd)) return { ok: false, problem: `invalid cwd ${JSON.stringify(cwd)}` };
  const label = spec.herdrWorkspace ?? basename(cwd);
  if (label === '' || CONTROL.test(label)) return { ok: false, problem: `invalid herdr workspace label ${JSON.stringify(label)}` };
  return { ok: true, spec: { name, agent: spec.agent, role, herdrServer: server, herdrWorkspace: label, cwd } };
}
