import { getAdapter } from '../adapters/get-adapter.js';
import { normalizeAgentId } from '../ids/agent-id.js';
import type { AgentName } from '../ids/agent-names.js';
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
  herdrName: string;
  server: string;
  cwd: string;
}

/**
 * Captures a live session's id: herdr's `agent_session` (kind `id`, this agent's) first, taken only when it verifies on
 * disk in `discover` mode and no other row records it; else the adapter's capture rule (exactly one verified, newer,
 * unclaimed, proven candidate).
 * @public
 */
export async function captureLiveId(c: LifecycleContext, agent: AgentName, row: SessionRow, where: LiveSessionWhere): Promise<LiveIdCapture> {
  const adapter = getAdapter(agent, { ports: c.ports });
  const claimed = idsClaimedByOthers(await c.registry.snapshot(), row.name);
  const canonicalClaimed = new Set(claimed.map((i) => normalizeAgentId(agent, i) ?? i));
  const epoch = row.herdr_session_epoch ?? undefined;
  const pid = row.pane?.pid ?? undefined;
  const ctx = discoveryContextOf(c, where.cwd, { siblingClaimedIds: claimed, ...(epoch === undefined ? {} : { epoch }), ...(pid === undefined ? {} : { panePid: pid }) });
  const got = await c.ports.herdr.agentGet(where.herdrName, { session: where.server });
  const agentGone = got.kind === 'error' && (got.code === 'agent_not_found' || got.code === 'server_not_running');
  let herdrNote = '';
  if (got.kind === 'ok') {
    const s = got.value.agent_session;
    if (s?.kind === 'id' && s.agent === agent) {
      const id = normalizeAgentId(agent, s.value);
      if (id !== null && !canonicalClaimed.has(id) && (await adapter.verifyArtifact(id, ctx, 'discover').catch(() => false))) return { kind: 'captured', id, source: 'herdr' };
      herdrNote = id === null ? 'herdr reported an implausible id; ' : 'herdr reported an id not verified on disk; ';
    }
  }
  const cap = await adapter.captureActiveSessionId(row, ctx).catch((err: unknown) => ({ kind: 'none' as const, reason: `capture failed: ${err instanceof Error ? err.message : String(err)}`, candidates: [] }));
  if (cap.kind === 'captured' && !canonicalClaimed.has(cap.id)) return { kind: 'captured', id: cap.id, source: 'disk' };
  if (cap.kind === 'captured') return { kind: 'none', reason: `${herdrNote}claimed-by-other-row`, candidates: [cap.id], agentGone };
  return { kind: 'none', reason: `${herdrNote}${cap.reason}`, candidates: cap.candidates, agentGone };
}
