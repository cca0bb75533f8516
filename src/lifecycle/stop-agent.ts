import type { HerdrPort } from '../ports/herdr.js';
import { herdrFailure } from './herdr-failure.js';
import type { LifecycleContext } from './lifecycle-context.js';
import type { StopExit } from './stop-result.js';

/**
 * Where the session to stop runs: its herdr name and server, and the pane the row recorded (used only when herdr no
 * longer knows the agent, and closed only if it hosts no agent).
 * @public
 */
export interface StopWhere {
  /** The name herdr knows the agent by. */
  herdrName: string;
  /** The herdr server (session) the pane lives on. */
  server: string;
  /** The pane id the row recorded (`herdr_pane_id`), or null. */
  knownPane: string | null;
}

function gone(code: string): boolean {
  return code === 'agent_not_found' || code === 'server_not_running';
}

// Closes a pane; one that is already gone counts as closed.
async function closePane(herdr: HerdrPort, pane: string, server: string): Promise<{ ok: true } | { ok: false; text: string }> {
  const r = await herdr.paneClose(pane, { session: server });
  if (r.kind === 'ok' || (r.kind === 'error' && r.code === 'pane_not_found')) return { ok: true };
  return { ok: false, text: herdrFailure(r).text };
}

/**
 * Ends a session through herdr: `/exit` and Enter into its pane, a bounded wait (the lifecycle's clock) until
 * `agent get` no longer finds it, then `pane close` (which ends a process still there). Never signals a process itself.
 * @public
 */
export async function stopAgent(c: LifecycleContext, where: StopWhere, signal?: AbortSignal): Promise<{ kind: 'ok'; exit: Omit<StopExit, 'captured'> } | { kind: 'failed'; text: string; code?: string }> {
  const { herdr, clock } = c.ports;
  const opts = { session: where.server };
  const got = await herdr.agentGet(where.herdrName, opts);
  if (got.kind !== 'ok') {
    if (got.kind === 'error' && gone(got.code)) return closeLeftPane(herdr, where);
    return { kind: 'failed', ...herdrFailure(got) };
  }
  const pane = got.value.pane_id;
  await herdr.paneSendText(pane, '/exit', opts);
  await herdr.paneSendKeys(pane, ['enter'], opts);
  const deadline = clock.monotonic() + c.timeouts.exitMs;
  let exited = false;
  for (;;) {
    const now = await herdr.agentGet(where.herdrName, opts);
    if ((now.kind === 'error' && gone(now.code)) || (now.kind === 'ok' && now.value.pane_id !== pane)) {
      exited = true;
      break;
    }
    const left = deadline - clock.monotonic();
    if (left <= 0) break;
    await clock.sleep(Math.min(c.timeouts.pollMs, left), signal);
  }
  const closed = await closePane(herdr, pane, where.server);
  if (!closed.ok && !exited) return { kind: 'failed', text: `the agent did not exit within ${c.timeouts.exitMs} ms and its pane could not be closed: ${closed.text}` };
  return { kind: 'ok', exit: { how: exited ? 'exited' : 'forced', pane, paneClosed: closed.ok } };
}

// herdr no longer knows the agent: close the pane the row recorded, but only while it hosts no agent (a pane id may
// have been given to another session since).
async function closeLeftPane(herdr: HerdrPort, where: StopWhere): Promise<{ kind: 'ok'; exit: Omit<StopExit, 'captured'> }> {
  const pane = where.knownPane;
  if (pane === null) return { kind: 'ok', exit: { how: 'already-gone', pane: null, paneClosed: false } };
  const info = await herdr.paneGet(pane, { session: where.server });
  if (info.kind === 'error' && (info.code === 'pane_not_found' || info.code === 'server_not_running')) return { kind: 'ok', exit: { how: 'already-gone', pane, paneClosed: true } };
  if (info.kind !== 'ok' || info.value.agent !== undefined) return { kind: 'ok', exit: { how: 'already-gone', pane, paneClosed: false } };
  const closed = await closePane(herdr, pane, where.server);
  return { kind: 'ok', exit: { how: 'already-gone', pane, paneClosed: closed.ok } };
}
