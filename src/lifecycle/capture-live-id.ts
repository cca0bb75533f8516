import { captureSessionId } from '../capture/capture-session-id.js';
import { idsClaimedByOthers } from '../registry/ids-claimed-by-others.js';
import type { SessionRow } from '../registry/session-row.js';
import { discoveryContextOf, type LifecycleContext } from './lifecycle-context.js';

/**
 * The id a live post-discovered session uses, and where it came from; or why none could be told (`agentGone`: herdr
 * no longer has the agent, so waiting longer will not help).
 * @public
 */
export type LiveIdCapture = { kind: 'captured'; id: string; source: 'herdr' | 'disk' } | { kind: 'none'; reason: string; candidates: string[]; agentGone: boolean };

/**
 * Where the session runs: the herdr name and server to ask, the cwd it works in.
 * @public
 */
export interface LiveSessionWhere {
  /** The name herdr knows the agent by. */
  herdrName: string;
  /** The herdr server (session) the pane lives on. */
  server: string;
  /** The cwd the agent works in: its conversations are looked up for this workspace. */
  cwd: string;
}

/**
 * Captures a live session's id by {@link captureSessionId} (herdr's `agent_session` first, verified on disk in `discover`
 * mode and claimed by no other row; else the adapter's capture rule), with the lifecycle's context: the registry's claimed
 * ids, the row's epoch and pane pid, the cwd it works in; `agentGone` when herdr no longer has the agent.
 * @public
 */
export async function captureLiveId(c: LifecycleContext, agent: string, row: SessionRow, where: LiveSessionWhere): Promise<LiveIdCapture> {
  const claimed = idsClaimedByOthers(await c.registry.snapshot(), row.name, { agents: c.agents });
  const epoch = row.herdr_session_epoch ?? undefined;
  const pid = row.pane?.pid ?? undefined;
  const ctx = discoveryContextOf(c, where.cwd, { ...(epoch === undefined ? {} : { epoch }), ...(pid === undefined ? {} : { panePid: pid }) });
  const got = await c.ports.herdr.agentGet(where.herdrName, { session: where.server });
  const agentGone = got.kind === 'error' && (got.code === 'agent_not_found' || got.code === 'server_not_running');
  const cap = await captureSessionId<string>({ ports: c.ports, agent, ...(c.agents === undefined ? {} : { agents: c.agents }), row, live: got.kind === 'ok' ? got.value : null, ctx, claimed });
  return cap.kind === 'captured' ? cap : { ...cap, agentGone };
}
