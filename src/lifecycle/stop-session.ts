import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import { recordedId, rowAgent } from '../registry/row-agent.js';
import { rowByName } from '../registry/row-lookup.js';
import type { SessionRow } from '../registry/session-row.js';
import { captureLiveId } from './capture-live-id.js';
import { adapterOf, type LifecycleContext, lifecycleAgents, rowCwd, rowServer } from './lifecycle-context.js';
import { LifecycleStepError } from './lifecycle-step-error.js';
import { pinCapturedId } from './pin-captured-id.js';
import { purgeStoppedRow } from './purge-stopped-row.js';
import { isHerdrServerName } from './session-spec.js';
import { stopAgent } from './stop-agent.js';
import type { StopOptions, StopResult } from './stop-result.js';
import { checkStopSession } from '../validation/low-level-args.js';

function failed(step: 'validate' | 'stop' | 'mark-stopped' | 'purge', row: SessionRow, message: string, code?: string): StopResult {
  return { kind: 'failed', step, row, error: new LifecycleStepError(step, row.name, message, code === undefined ? {} : { herdrCode: code }) };
}

// A post-discovered row that records no id gets its live id captured and pinned before the session goes.
async function captureBeforeStop(c: LifecycleContext, agent: string, row: SessionRow, herdrName: string): Promise<string | null> {
  if (adapterOf(c, agent).idLifecycle !== 'post_discovered' || recordedId(row, { agents: c.agents }) !== null) return null;
  const cap = await captureLiveId(c, agent, row, { herdrName, server: rowServer(row), cwd: rowCwd(row, c.workspace) });
  if (cap.kind !== 'captured') return null;
  const pinned = await pinCapturedId(c.registry, agent, row.name, row.herdr_session_created_at ?? null, cap.id, c.agents);
  return pinned === 'pinned' ? cap.id : null;
}

// Marks this instance of the row stopped; null when the row is gone or is another instance now.
async function markStopped(c: LifecycleContext, row: SessionRow): Promise<SessionRow | null> {
  return c.registry.update((draft) => {
    const now = draft.herdr_sessions.find((r) => r.name === row.name);
    if (now === undefined || now.herdr_session_created_at !== row.herdr_session_created_at) return null;
    now.status = 'stopped';
    return structuredClone(now);
  });
}

/**
 * Stops a session: captures a post-discovered row's id first (when it records none), asks the agent to exit, waits
 * (bounded), closes its pane and marks the row `stopped`; with `purge` (and `yes`), purges the recorded conversation and
 * removes the row, or keeps it `stopped` with its id when the purge is refused.
 * @public
 */
export async function stopSession(c: LifecycleContext, name: string, opts: StopOptions = {}): Promise<StopResult> {
  checkStopSession([c, name, opts]);
  const row = rowByName(await c.registry.snapshot(), name);
  if (row === undefined) return { kind: 'not-found', name };
  if (opts.purge === true && opts.yes !== true) {
    return { kind: 'needs-yes', name, message: `stopping ${JSON.stringify(name)} with a purge deletes its conversation artifacts; nothing was done. Re-run with --yes` };
  }
  const agents = lifecycleAgents(c);
  const agent = rowAgent<string>(row, { agents: c.agents });
  if (agent === undefined) return failed('validate', row, 'the row names no known agent; check it, then fix or remove it by hand');
  const server = rowServer(row);
  // Row fields are input from disk: only what herdr itself would accept is passed on.
  if (!isHerdrServerName(server)) return failed('validate', row, `the row's herdr server ${JSON.stringify(server)} is no herdr session name; check it, then fix or remove it by hand`);
  const herdrName = sanitizeHerdrAgentName(name);
  // The row is marked after the agent is stopped: a registry that cannot be written is refused before the stop.
  await c.registry.checkFiles();
  const captured = row.status === 'running' ? await captureBeforeStop(c, agent, row, herdrName) : null;
  const pane: unknown = row['herdr_pane_id'];
  const knownPane = typeof pane === 'string' && /^[A-Za-z0-9][A-Za-z0-9:_-]{0,63}$/.test(pane) ? pane : null;
  const stopped = await stopAgent(c, { herdrName, server, knownPane }, opts.signal);
  if (stopped.kind === 'failed') return failed('stop', row, stopped.text, stopped.code);
  const exit = { ...stopped.exit, captured };
  const marked = await markStopped(c, row);
  if (marked === null) return failed('mark-stopped', row, 'the row was removed or replaced by another instance while it was being stopped');
  const id = recordedId(marked, { agents: c.agents });
  if (opts.purge !== true) return { kind: 'stopped', row: marked, id, exit };
  if (id !== null && !agents.plausible(agent, id)) return failed('purge', marked, `the row records ${JSON.stringify(id)}, which is no ${agent} conversation id; nothing was purged and the row is kept: check it, then fix or remove it by hand`);
  return purgeStoppedRow(c, agent, marked, id, exit);
}
