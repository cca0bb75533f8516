import { adaptersOf } from '../agents/adapters-of.js';
import { normalizeAgentId } from '../ids/agent-id.js';
import type { AgentName } from '../ids/agent-names.js';
import { idsClaimedByOthers } from '../registry/ids-claimed-by-others.js';
import { pinRow } from '../registry/pin-row.js';
import { recordedId } from '../registry/row-agent.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';
import { captureContextOf } from './capture-context.js';
import type { RowCaptureDeps } from './row-capture-deps.js';
import { sameInstance } from './same-instance.js';

/**
 * What following a pinned id did: `followed` (the row now records the id its conversation continues under, with the
 * reason left on the row as `session_id_followed_from` / `session_id_follow_reason`), `unchanged` (the id is still the
 * live one, or the agent's ids never move), or `refused` (why the continuation was not pinned).
 * @public
 */
export type FollowOutcome = { kind: 'followed'; from: string; id: string; reason: string } | { kind: 'unchanged' } | { kind: 'refused'; reason: string };

/**
 * For a row that already records `recorded`: when the agent says its conversation continues under another id now
 * (Hermes' compression moves the live session to a child), re-pins the row to that id — only while it verifies in the
 * row's workspace, the row is the same instance still recording `recorded`, and no other row records the new id —
 * in one locked registry update, so resume resumes the live continuation.
 * @public
 */
export async function followContinuation(
  deps: RowCaptureDeps & { registry: SessionRegistry },
  row: SessionRow,
  agent: AgentName,
  recorded: string,
  claimed: readonly string[],
): Promise<FollowOutcome> {
  const adapter = adaptersOf(deps.ports).get(agent);
  if (adapter.currentId === undefined) return { kind: 'unchanged' };
  const made = await captureContextOf(deps, row, agent, null, claimed);
  if (!made.ok) return { kind: 'unchanged' };
  const from = normalizeAgentId(agent, recorded) ?? recorded;
  const tip = await adapter.currentId(from, made.ctx);
  if (tip === null || tip === from) return { kind: 'unchanged' };
  if (!(await adapter.verifyArtifact(tip, made.ctx, 'verify'))) return { kind: 'refused', reason: `the continuation ${tip} of ${from} is not a conversation of this workspace` };
  const reason = `the conversation ${from} was compressed and continues under ${tip}`;
  return deps.registry.update((draft): FollowOutcome => {
    const live = sameInstance(draft, row);
    if (typeof live === 'string') return { kind: 'refused', reason: live };
    if (recordedId(live) !== recorded) return { kind: 'refused', reason: 'the row records another id now' };
    if (idsClaimedByOthers(draft, live.name).some((o) => (normalizeAgentId(agent, o) ?? o) === tip)) return { kind: 'refused', reason: `another row records ${tip}` };
    const pinned = pinRow(draft, live.name, tip);
    pinned['session_id_followed_from'] = from;
    pinned['session_id_follow_reason'] = reason;
    return { kind: 'followed', from, id: tip, reason };
  });
}
