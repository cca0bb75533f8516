import { AGENT_NAMES, type AgentName, isAgentName, ownKey } from '../ids/agent-names.js';
import type { SessionRow } from './session-row.js';

/**
 * The row's agent: its `agent` field, else inferred as the reference tool's rows allow — the one agent whose own key
 * the row carries, else a canonical agent name in `pane.cmd`; undefined when none of these decides.
 * @public
 */
export function rowAgent(row: SessionRow): AgentName | undefined {
  if (row.agent !== undefined) return row.agent;
  const keyed = AGENT_NAMES.filter((a) => Object.hasOwn(row, ownKey(a)));
  if (keyed.length === 1) return keyed[0];
  const cmd = row.pane?.cmd;
  return keyed.length === 0 && isAgentName(cmd) ? cmd : undefined;
}

/**
 * The conversation id a row records: `row[ownKey(agent)]` when it is a non-empty string, else null.
 * @public
 */
export function recordedId(row: SessionRow): string | null {
  const agent = rowAgent(row);
  if (agent === undefined) return null;
  const id: unknown = row[ownKey(agent)];
  return typeof id === 'string' && id !== '' ? id : null;
}
