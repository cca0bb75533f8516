import { getAdapter } from '../adapters/get-adapter.js';
import type { CaptureResult } from '../adapters/types.js';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import { normalizeAgentId } from '../ids/agent-id.js';
import type { AgentName } from '../ids/agent-names.js';
import type { HerdrAgentInfo } from '../ports/herdr.js';
import type { SessionRow } from '../registry/session-row.js';
import { captureContextOf } from './capture-context.js';
import type { PinSource } from './autopin-result.js';
import { type RowCaptureDeps, rowHerdrServer } from './row-capture-deps.js';

/**
 * The id a row's live session uses and where it came from, or why none can be pinned (with the candidates seen).
 * @public
 */
export type RowCapture = { kind: 'captured'; id: string; source: PinSource } | { kind: 'none'; reason: string; candidates: string[] };

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function liveAgent(deps: RowCaptureDeps, row: SessionRow): Promise<HerdrAgentInfo | null> {
  const got = await deps.ports.herdr.agentGet(sanitizeHerdrAgentName(row.name), { session: rowHerdrServer(row) }).catch(() => null);
  return got?.kind === 'ok' ? got.value : null;
}

/**
 * Captures the conversation id of a row's live session, as AutoPin and reconcile both do: herdr's `agent_session`
 * (kind `id`, this agent's, from `agent get <sanitised name>`) is the first evidence, taken only when it verifies on disk
 * in `discover` mode and nobody else claims it; otherwise the adapter's `captureActiveSessionId` (exactly one verified,
 * newer, unclaimed, proven candidate). `claimed` are the ids other rows record. Never throws.
 * @example
 * ```ts
 * const got = await captureRowId({ ports, home }, row, 'agy', idsClaimedByOthers(state, row.name));
 * if (got.kind === 'captured') await pin(got.id);
 * ```
 * @public
 */
export async function captureRowId(deps: RowCaptureDeps, row: SessionRow, agent: AgentName, claimed: readonly string[]): Promise<RowCapture> {
  const canonicalClaimed = new Set(claimed.map((i) => normalizeAgentId(agent, i) ?? i));
  const live = await liveAgent(deps, row);
  const made = await captureContextOf(deps, row, agent, live, claimed);
  if (!made.ok) return { kind: 'none', reason: made.reason, candidates: [] };
  const { ctx } = made;
  const adapter = getAdapter(agent, { ports: deps.ports });
  let note = '';
  const reported = live?.agent_session;
  if (reported?.kind === 'id' && reported.agent === agent) {
    const id = normalizeAgentId(agent, reported.value);
    if (id === null) note = 'herdr reported an implausible id; ';
    else if (canonicalClaimed.has(id)) note = 'herdr reported an id another row records; ';
    else if (await adapter.verifyArtifact(id, ctx, 'discover').catch(() => false)) return { kind: 'captured', id, source: 'herdr' };
    else note = 'herdr reported an id not verified on disk; ';
  }
  let cap: CaptureResult;
  try {
    cap = await adapter.captureActiveSessionId(row, ctx);
  } catch (err) {
    return { kind: 'none', reason: `${note}capture failed: ${message(err)}`, candidates: [] };
  }
  if (cap.kind === 'none') return { kind: 'none', reason: `${note}${cap.reason}`, candidates: cap.candidates };
  const id = normalizeAgentId(agent, cap.id);
  if (id === null) return { kind: 'none', reason: `${note}the adapter captured an implausible id`, candidates: [cap.id] };
  if (canonicalClaimed.has(id)) return { kind: 'none', reason: `${note}claimed-by-other-row`, candidates: [id] };
  return { kind: 'captured', id, source: 'disk' };
}
