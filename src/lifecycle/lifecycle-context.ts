import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { type AgentCatalog, outsideAdapter } from '../agents/outside-agents.js';
import { adaptersOf } from '../agents/adapters-of.js';
import type { AgentAdapter, HomeDiscoveryContext } from '../agents/types.js';
import { UnknownAgentError } from '../errors.js';
import { builtinAgent, isAgentName } from '../ids/agent-names.js';
import { registryAgents } from '../registry/registry-agents.js';
import type { IdOrderGate } from '../gate/id-order-gate.js';
import type { Ports } from '../ports/index.js';
import type { PurgeService } from '../purge/purge-service.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';

/**
 * How long the lifecycle waits for herdr and the agent.
 * @public
 */
export interface LifecycleTimeouts {
  /** `herdr agent start --timeout` (ms); absent = herdr's default (30 s). */
  startMs?: number;
  /** Wait for the started agent to be ready (idle, done or blocked). */
  readyMs: number;
  /** Onboarding's window to capture a post-discovered agent's id (default `MAM_ONBOARD_WAIT_S`, else 30 s). */
  captureMs: number;
  /** Wait for an agent asked to exit to be gone before its pane is closed. */
  exitMs: number;
  /** Pause between looks while waiting. */
  pollMs: number;
}

/**
 * Everything a create or a stop works with (built once by {@link SessionLifecycle}).
 * @public
 */
export interface LifecycleContext {
  /** The workspace whose registry the rows live in; a row's default cwd. */
  workspace: string;
  /** The ports every step works through. */
  ports: Ports;
  /** The workspace's registry. */
  registry: SessionRegistry;
  /** Removes a stopped row's conversation when a stop asks for it (it knows the outside {@link LifecycleContext.agents}). */
  purge: PurgeService<string>;
  /**
   * Agents defined outside the package (`defineAgent`) a session may run, after the built-ins; the registry and the
   * purge service know them too. None when absent.
   */
  agents?: readonly AgentDefinition<string>[];
  /** The id-order gate post-discovered creates in one cwd pass through. */
  gate: IdOrderGate;
  /** The home whose agent dirs hold the conversations. */
  home: string;
  /** The agent environment given by the caller, if any (else the adapters decide from the ProcessPort's). */
  env: Record<string, string | undefined> | undefined;
  /** The waits, defaults filled in. */
  timeouts: LifecycleTimeouts;
}

/**
 * The discovery context of a session in `cwd` (the home and agent environment of the lifecycle, plus `extra`).
 * @public
 */
export function discoveryContextOf(c: LifecycleContext, cwd: string, extra: Omit<HomeDiscoveryContext, 'workspace' | 'home' | 'env'> = {}): HomeDiscoveryContext {
  return { workspace: cwd, home: c.home, ...(c.env === undefined ? {} : { env: c.env }), ...extra };
}

/**
 * The herdr server a row lives on: `herdr_server`, else the older `herdr_session`, else `default`.
 * @public
 */
export function rowServer(row: SessionRow): string {
  const s = row.herdr_server ?? row.herdr_session;
  return typeof s === 'string' && s !== '' ? s : 'default';
}

/**
 * The cwd a row's session runs in: its pane's cwd, else the workspace.
 * @public
 */
export function rowCwd(row: SessionRow, workspace: string): string {
  const cwd = row.pane?.cwd;
  return typeof cwd === 'string' && cwd !== '' ? cwd : workspace;
}

/**
 * The agents a lifecycle knows: the built-ins and `c.agents`.
 * @public
 */
export function lifecycleAgents(c: LifecycleContext): AgentCatalog<string> {
  return registryAgents<string>(c.agents, 'c.agents');
}

/**
 * The definition of a built-in agent or of one of `c.agents` (an {@link UnknownAgentError} for any other name).
 * @public
 */
export function definitionOf(c: LifecycleContext, agent: string): AgentDefinition<string> {
  const agents = lifecycleAgents(c);
  const outside = agents.outside(agent);
  if (outside !== undefined) return outside;
  if (isAgentName(agent)) return builtinAgent(agent);
  throw new UnknownAgentError(agent, agents.names);
}

/**
 * The shared adapter on `c.ports` of a built-in agent or of one of `c.agents`.
 * @public
 */
export function adapterOf(c: LifecycleContext, agent: string): AgentAdapter<string> {
  const outside = lifecycleAgents(c).outside(agent);
  return outside === undefined ? adaptersOf(c.ports).get(agent as never) : outsideAdapter(c.ports, outside);
}
