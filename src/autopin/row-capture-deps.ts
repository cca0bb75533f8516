import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import type { Ports } from '../ports/index.js';
import type { SessionRow } from '../registry/session-row.js';

/**
 * What capturing a row's id works with: the ports, the home whose agent dirs hold the conversations, the agents'
 * environment when the caller gives one (else each adapter reads the ProcessPort's), and the agents defined outside the
 * package a row may name.
 * @public
 */
export interface RowCaptureDeps {
  /** The ports capture reads through (herdr, process table, filesystem). */
  ports: Ports;
  /** The home whose agent dirs hold the conversations. */
  home: string;
  /** The agents' environment (CLAUDE_CONFIG_DIR, CODEX_HOME …); undefined: each adapter reads the ProcessPort's. */
  env?: Record<string, string | undefined> | undefined;
  /**
   * Agents defined outside the package (`defineAgent`) a row may name, after the built-ins (the registry's `agents`):
   * their ids are captured from their stores and recorded under their own keys. None when absent.
   */
  agents?: readonly AgentDefinition<string>[] | undefined;
}

/**
 * The herdr server (session) a row's pane lives on: `herdr_server`, else the older `herdr_session`, else `default`.
 * @public
 */
export function rowHerdrServer(row: SessionRow): string {
  const s = row.herdr_server ?? row.herdr_session;
  return typeof s === 'string' && s !== '' ? s : 'default';
}
