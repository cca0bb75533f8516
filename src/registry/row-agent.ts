import type { AgentCatalog } from '../agents/outside-agents.js';
import type { AgentName } from '../ids/agent-names.js';
import { agentsOf, BUILTIN_CATALOG, type RegistryAgentsOption } from './registry-agents.js';
import type { SessionRow } from './session-row.js';

/** `rowAgent` in a catalog of agents. */
export function rowAgentIn<Extra extends string>(row: SessionRow, agents: AgentCatalog<Extra>): AgentName | Extra | undefined {
  const named: unknown = row.agent;
  if (named !== undefined) return agents.knows(named) ? named : undefined;
  const keyed = agents.names.filter((a) => Object.hasOwn(row, agents.ownKey(a) as string));
  if (keyed.length === 1) return keyed[0];
  const cmd = row.pane?.cmd;
  return keyed.length === 0 && agents.knows(cmd) ? cmd : undefined;
}

/** {@link recordedId} in a catalog of agents. */
export function recordedIdIn(row: SessionRow, agents: AgentCatalog<string> = BUILTIN_CATALOG): string | null {
  const agent = rowAgentIn(row, agents);
  if (agent === undefined) return null;
  const id: unknown = row[agents.ownKey(agent) as string];
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * The row's agent: its `agent` field, else inferred as the reference tool's rows allow — the one agent whose own key
 * the row carries, else a canonical agent name in `pane.cmd`; undefined when none of these decides.
 * @public
 */
export function rowAgent(row: SessionRow): AgentName | undefined;
/**
 * The row's agent as for the built-ins alone, the outside agents of `opts.agents` counting too (a row's `agent` may
 * name one, its own key may be one's).
 * @public
 */
export function rowAgent<Extra extends string>(row: SessionRow, opts: RegistryAgentsOption<Extra>): AgentName | Extra | undefined;
export function rowAgent<Extra extends string>(row: SessionRow, opts?: RegistryAgentsOption<Extra>): AgentName | Extra | undefined {
  return rowAgentIn(row, agentsOf(opts));
}

/**
 * The conversation id a row records: `row[ownKey(agent)]` when it is a non-empty string, else null (`opts.agents` as
 * for `rowAgent`).
 * @public
 */
export function recordedId(row: SessionRow, opts?: RegistryAgentsOption<string>): string | null {
  return recordedIdIn(row, agentsOf(opts));
}
