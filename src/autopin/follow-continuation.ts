import { adaptersOf } from '../agents/adapters-of.js';
import { outsideAdapter } from '../agents/outside-agents.js';
import type { AgentAdapter } from '../agents/types.js';
import { idsClaimedByOthers } from '../registry/ids-claimed-by-others.js';
import { pinRow } from '../registry/pin-row.js';
import { agentsOf } from '../registry/registry-agents.js';
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
 * in one locked registry update, so resume resumes the live continuation. `agent` is a built-in agent or one of
 * `deps.agents` (an outside agent whose ids move, `ids.moves`, follows through its store's `currentId`).
 * @public
 */
export async function followContinuation(
  deps: RowCaptureDeps & { registry: SessionRegistry },
  row: SessionRow,
  agent: string,
  recorded: string,
  claimed: readonly string[],
): Promise<FollowOutcome> {
  const agents = agentsOf({ agents: deps.agents });
  const outside = agents.outside(agent);
  const adapter: AgentAdapter<string> = outside === undefined ? adaptersOf(deps.ports).get(agent as never) : outsideAdapter(deps.ports, outside);
  if (adapter.currentId === undefined) return { kind: 'unchanged' };
  const made = await captureContextOf(deps, row, agent, null, claimed);
  if (!made.ok) return { kind: 'unchanged' };
  const from = agents.canonical(agent, recorded) ?? recorded;
  const tip = await adapter.currentId(from, made.ctx);
  if (tip === null || tip === from) return { kind: 'unchanged' };
  if (!(await adapter.verifyArtifact(tip, made.ctx, 'verify'))) return { kind: 'refused', reason: `the continuation ${tip} of ${from} is not a conversation of this workspace` };
  const reason = `the conversation ${from} was compressed and continues under ${tip}`;
  return deps.registry.update((draft): FollowOutcome => {
    const live = sameInstance(draft, row);
    if (typeof live === 'string') return { kind: 'refused', reason: live };
    const known = { agents: deps.agents };
    if (recordedId(live, known) !== recorded) return { kind: 'refused', reason: 'the row records another id now' };
    if (idsClaimedByOthers(draft, live.name, { agents: deps.registry.agents }).some((o) => (agents.canonical(agent, o) ?? o) === tip)) return { kind: 'refused', reason: `another row records ${tip}` };
    const pinned = pinRow(draft, live.name, tip, known);
    pinned['session_id_followed_from'] = from;
    pinned['session_id_follow_reason'] = reason;
    return { kind: 'followed', from, id: tip, reason };
  });
}
