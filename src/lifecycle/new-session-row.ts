import { UnknownAgentError } from '../errors.js';
import type { AgentName } from '../ids/agent-names.js';
import { agentsOf, type RegistryAgentsOption } from '../registry/registry-agents.js';
import type { SessionRow } from '../registry/session-row.js';
import type { ResolvedSessionSpec } from './session-spec.js';

/**
 * A session instance's start: `herdr_session_created_at` (ISO 8601, seconds) and `herdr_session_epoch` (seconds).
 * @public
 */
export interface SessionInstant {
  /** `herdr_session_created_at`: ISO 8601 UTC to the second, e.g. `2026-01-02T03:04:05Z`. */
  createdAt: string;
  /** `herdr_session_epoch`: Unix seconds. */
  epoch: number;
}

/**
 * The instant of `ms` (epoch milliseconds); `avoid` is a created-at (or several) the new one must come after (the row
 * it replaces, and the instance a crashed run of the same reset already registered), so a reset can always tell the new
 * instance from the old: the instant moves on by whole seconds until it is later than each of them. Later, not only
 * different: two resets inside one second would otherwise give the third instance of a session the created-at of the
 * first (the second moved on by a second, the third did not need to), and whoever remembered the first instance would
 * take the third for it.
 * @public
 */
export function sessionInstant(ms: number, avoid?: string | null | readonly (string | null | undefined)[]): SessionInstant {
  const iso = (t: number): string => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
  let at = ms;
  // Past each avoided instant (a string that is no date cannot equal the date `at` is, so it needs nothing).
  for (const t of Array.isArray(avoid) ? avoid : [avoid]) {
    const when = typeof t === 'string' ? Date.parse(t) : Number.NaN;
    if (Number.isFinite(when) && when + 1000 > at) at = when - (when % 1000) + 1000;
  }
  return { createdAt: iso(at), epoch: Math.floor(ms / 1000) };
}

/**
 * The row a create registers: `running`, the new instant, the pre-assigned id under the agent's own key (or null with
 * `session_id_source: pending-discovery`), the pane's cwd, pid and command, and the herdr pane id. An outside agent's
 * row (its definition in `opts.agents`) records the id under the definition's `ownKey`.
 * @public
 */
export function newSessionRow<Extra extends string = never>(
  spec: ResolvedSessionSpec<Extra>,
  at: SessionInstant,
  pane: { id: string; pid: number | null },
  preId: string | null,
  opts: RegistryAgentsOption<Extra> = {},
): SessionRow {
  const agents = agentsOf(opts);
  const key = agents.ownKey(spec.agent);
  if (key === undefined) throw new UnknownAgentError(spec.agent, agents.names);
  return {
    name: spec.name,
    status: 'running',
    role: spec.role,
    agent: spec.agent as AgentName,
    herdr_session: spec.herdrServer,
    herdr_server: spec.herdrServer,
    herdr_workspace: spec.herdrWorkspace,
    herdr_session_created_at: at.createdAt,
    herdr_session_epoch: at.epoch,
    [key]: preId,
    session_id_source: preId === null ? 'pending-discovery' : 'assigned',
    session_id_verified: false,
    pane: { cwd: spec.cwd, pid: pane.pid, cmd: spec.agent },
    herdr_pane_id: pane.id,
  };
}
