import { captureSessionId } from '../capture/capture-session-id.js';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
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

async function liveAgent(deps: RowCaptureDeps, row: SessionRow): Promise<HerdrAgentInfo | null> {
  const got = await deps.ports.herdr.agentGet(sanitizeHerdrAgentName(row.name), { session: rowHerdrServer(row) }).catch(() => null);
  return got?.kind === 'ok' ? got.value : null;
}

/**
 * Captures the conversation id of a row's live session, as AutoPin and reconcile both do: {@link captureSessionId}
 * (herdr's `agent_session` from `agent get <sanitised name>` first, verified on disk in `discover` mode and claimed by
 * nobody else; otherwise the adapter's `captureActiveSessionId`) in the row's capture context (its pane cwd's realpath,
 * the pane's agent pid). `claimed` are the ids other rows record. `agent` is a built-in agent or one of `deps.agents`
 * (an outside agent's id is captured from its store). Never throws.
 * @example
 * ```ts
 * const got = await captureRowId({ ports, home }, row, 'agy', idsClaimedByOthers(state, row.name));
 * if (got.kind === 'captured') await pin(got.id);
 * ```
 * @public
 */
export async function captureRowId(deps: RowCaptureDeps, row: SessionRow, agent: string, claimed: readonly string[]): Promise<RowCapture> {
  const live = await liveAgent(deps, row);
  const made = await captureContextOf(deps, row, agent, live, claimed);
  if (!made.ok) return { kind: 'none', reason: made.reason, candidates: [] };
  const agents = deps.agents === undefined ? {} : { agents: deps.agents };
  return captureSessionId<string>({ ports: deps.ports, agent, ...agents, row, live, ctx: made.ctx, claimed });
}
