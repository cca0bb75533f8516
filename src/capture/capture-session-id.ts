import { adaptersOf } from '../agents/adapters-of.js';
import type { AgentAdapter, CaptureResult, HomeDiscoveryContext } from '../agents/types.js';
import { describeError } from '../errors.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { agentCatalog, checkOutsideAgents, outsideAdapter } from '../agents/outside-agents.js';
import type { AgentName } from '../ids/agent-names.js';
import type { HerdrAgentInfo } from '../ports/herdr.js';
import type { Ports } from '../ports/index.js';
import type { SessionRow } from '../registry/session-row.js';
import { checkCaptureInput } from './capture-args.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';

/**
 * What {@link captureSessionId} works with: the session's row and agent, herdr's live view of it, where its conversations
 * are looked up, and the ids other rows record.
 * @public
 */
export interface SessionIdCaptureInput<Extra extends string = never> {
  /** The ports the adapter reads through. */
  ports: Ports;
  /** The row's agent: a built-in one, or one of `agents`. */
  agent: AgentName | Extra;
  /** Agents defined outside the package (`defineAgent`) `agent` may name; none by default. */
  agents?: readonly AgentDefinition<Extra>[];
  /** The row whose live session's id is wanted (its epoch bounds the capture). */
  row: SessionRow;
  /** herdr's `agent get` answer for the session, or null when herdr has none. */
  live: HerdrAgentInfo | null;
  /** Where the conversations are looked up (workspace, home, epoch, pane pid); its claimed ids are set from `claimed`. */
  ctx: HomeDiscoveryContext;
  /** The ids other rows record: never captured for this one. */
  claimed: readonly string[];
}

/**
 * The id a live session uses and where it came from (herdr's report or the disk), or why none can be told, with the
 * candidates seen.
 * @public
 */
export type SessionIdCapture = { kind: 'captured'; id: string; source: 'herdr' | 'disk' } | { kind: 'none'; reason: string; candidates: string[] };

/**
 * Captures the conversation id of a live session, the one rule onboarding, stop and AutoPin share: herdr's `agent_session`
 * (kind `id`, this agent's) first, taken only when it is plausible, no other row records it, and it verifies on disk in
 * `discover` mode; otherwise the adapter's `captureActiveSessionId` (exactly one verified, newer, unclaimed, proven
 * candidate), its id normalised and checked against the claimed ones again. The reason of a `none` starts with what was
 * wrong with herdr's report, if anything. Never throws on a bad store or a bad report; an input it cannot take (an
 * unknown agent, a relative or missing home, wrong types) throws {@link InvalidArgumentError}.
 * @example
 * ```ts
 * const got = await captureSessionId({ ports, agent: 'codex', row, live, ctx, claimed: idsClaimedByOthers(state, row.name) });
 * if (got.kind === 'captured') await pin(got.id, got.source);
 * ```
 * @public
 */
export async function captureSessionId<Extra extends string = never>(input: SessionIdCaptureInput<Extra>): Promise<SessionIdCapture> {
  const checked = await checkCaptureInput(input);
  const { agent, row, live, claimed } = input;
  const ctx: HomeDiscoveryContext = { ...checked, siblingClaimedIds: [...claimed] };
  const agents = agentCatalog<Extra>(checkOutsideAgents<Extra>(input.agents, 'input.agents'));
  const normalize = (id: string): string | null => agents.canonical(agent, id);
  const canonicalClaimed = new Set(claimed.map((i) => normalize(i) ?? i));
  const definition = agents.outside(agent);
  const adapter: AgentAdapter<string> = definition === undefined ? adaptersOf(input.ports).get(agent as AgentName) : outsideAdapter(input.ports, definition);
  let note = '';
  const reported = live?.agent_session;
  if (reported?.kind === 'id' && reported.agent === agent) {
    const id = normalize(reported.value);
    if (id === null) note = 'herdr reported an implausible id; ';
    else if (canonicalClaimed.has(id)) note = 'herdr reported an id another row records; ';
    else if (await adapter.verifyArtifact(id, ctx, 'discover').catch(() => false)) return { kind: 'captured', id, source: 'herdr' };
    else note = 'herdr reported an id not verified on disk; ';
  }
  let cap: CaptureResult;
  try {
    cap = await adapter.captureActiveSessionId(row, ctx);
  } catch (err) {
    return { kind: 'none', reason: `${note}capture failed: ${describeError(err)}`, candidates: [] };
  }
  if (cap.kind === 'none') return { kind: 'none', reason: `${note}${cap.reason}`, candidates: cap.candidates };
  const id = normalize(cap.id);
  if (id === null) return { kind: 'none', reason: `${note}the adapter captured an implausible id`, candidates: [cap.id] };
  if (canonicalClaimed.has(id)) return { kind: 'none', reason: `${note}claimed-by-other-row`, candidates: [id] };
  return { kind: 'captured', id, source: 'disk' };
}
