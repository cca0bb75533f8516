import { InvalidArgumentError } from '../invalid-argument-error.js';
import { describeError } from '../errors.js';
import { recordedId } from '../registry/row-agent.js';
import type { SessionRow } from '../registry/session-row.js';
import { captureLiveId, type LiveSessionWhere } from './capture-live-id.js';
import type { OnboardingReport } from './create-result.js';
import { adapterOf, lifecycleAgents, type LifecycleContext } from './lifecycle-context.js';
import { pinCapturedId } from './pin-captured-id.js';
import { absolutePathSchema, argumentsChecker } from '../validation/common-schemas.js';
import { lifecycleContext } from '../validation/low-level-args.js';
import { nameSchema, objectSchema } from '../validation/workspace-args.js';

// `onboardSession(c, agent, row, where, signal)`: the agent a name (checked against the lifecycle's agents below).
const checkOnboardSession = argumentsChecker(['c', 'agent', 'row', 'where', 'signal'], (z) => [
  lifecycleContext(z),
  z.string({ error: 'must be an agent name' }),
  objectSchema(z),
  z.object({ herdrName: nameSchema(z), server: z.string({ error: 'must be a string' }), cwd: absolutePathSchema(z) }, { error: 'must be an object' }).loose(),
  objectSchema(z).optional(),
]);

/**
 * Onboards a started session: waits until herdr says it is ready, then (post-discovered agents) captures its id — herdr's
 * report first, verified on disk — and pins it, looking again until the capture window (`captureMs`) closes. `agent` is
 * a built-in agent or one of `c.agents`.
 * @public
 */
export async function onboardSession(c: LifecycleContext, agent: string, row: SessionRow, where: LiveSessionWhere, signal?: AbortSignal): Promise<OnboardingReport> {
  checkOnboardSession([c, agent, row, where, signal]);
  const agents = lifecycleAgents(c);
  if (!agents.knows(agent)) throw new InvalidArgumentError('agent', `must be one of ${agents.names.join(', ')}`);
  const { herdr, clock } = c.ports;
  const waited = await herdr.agentWait(where.herdrName, { until: ['idle', 'done', 'blocked'], timeoutMs: Math.max(1, c.timeouts.readyMs) }, { session: where.server });
  const ready = waited.kind === 'ok';
  if (adapterOf(c, agent).idLifecycle === 'pre_assigned') return { ran: true, ready, id: recordedId(row, { agents: c.agents }), source: 'pre-assigned', reason: null };
  const deadline = clock.monotonic() + c.timeouts.captureMs;
  let reason = 'no-candidate';
  for (;;) {
    const cap = await captureLiveId(c, agent, row, where);
    if (cap.kind === 'captured') {
      // A registry write that fails (a full or busy disk) is tried again at the next look, within the window.
      const pinned = await pinCapturedId(c.registry, agent, row.name, row.herdr_session_created_at ?? null, cap.id, c.agents).catch((err: unknown) => ({ failed: describeError(err) }));
      if (pinned === 'pinned') return { ran: true, ready, id: cap.id, source: cap.source, reason: null };
      reason = typeof pinned === 'string' ? pinned : `pinning the id failed: ${pinned.failed}`;
      if (pinned === 'row-changed') break;
    } else {
      reason = cap.reason;
      if (cap.agentGone) {
        reason = `${reason} (the agent is gone)`;
        break;
      }
    }
    const left = deadline - clock.monotonic();
    if (left <= 0) break;
    await clock.sleep(Math.min(c.timeouts.pollMs, left), signal);
  }
  return { ran: true, ready, id: null, source: null, reason };
}
