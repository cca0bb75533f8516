import type { Ports } from '../ports/index.js';
import type { SessionRow } from '../registry/session-row.js';

/**
 * What capturing a row's id works with: the ports, the home whose agent dirs hold the conversations, and the agents'
 * environment when the caller gives one (else each adapter reads the ProcessPort's).
 * @public
 */
export interface RowCaptureDeps {
  /** The ports capture reads through (herdr, process table, filesystem). */
  ports: Ports;
  /** The home whose agent dirs hold the conversations. */
  home: string;
  /** The agents' environment (CLAUDE_CONFIG_DIR, CODEX_HOME …); undefined: each adapter reads the ProcessPort's. */
  env?: Record<string, string | undefined> | undefined;
}

/**
 * The herdr server (session) a row's pane lives on: `herdr_server`, else the older `herdr_session`, else `default`.
 * @public
 */
export function rowHerdrServer(row: SessionRow): string {
  const s = row.herdr_server ?? row.herdr_session;
  return typeof s === 'string' && s !== '' ? s : 'default';
}
