// What a purge plan asks of an agent's stores beyond its own artifacts: which stores cannot be read here, and whether a
// conversation is of the workspace a scoped purge names (or cannot be told, its store unreadable).
import type { AgentAdapter, HomeDiscoveryContext } from '../agents/types.js';
import { describeError } from '../errors.js';
import { formatArtifact, type LeftArtifact } from './artifact.js';
import { faultCauseOfText } from './purge-fault.js';

// The stores of an agent that cannot be read here, from one inspection (the survey of an adapter without one): a store
// that says it cannot be read, else the problems it names with a cause (a damaged header, a missing binding). Never
// throws: a look that fails is a store that cannot be read.
export async function unreadableStores(adapter: AgentAdapter<string>, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
  const left = (path: string, why: string): LeftArtifact => ({ kind: 'file', path, reason: `${adapter.name} store unreadable: ${why}` });
  try {
    if (adapter.inspect === undefined) {
      const s = await adapter.survey(ctx);
      return s.store === 'unreadable' ? [left(s.root, s.reason ?? 'cannot be read')] : [];
    }
    const r = await adapter.inspect(ctx);
    if (r.presence === 'absent') return [];
    const root = r.root ?? ctx.home;
    if (r.readable === false) return [left(root, r.problems.length > 0 ? r.problems.join('; ') : 'cannot be read')];
    return r.problems.filter((p) => /unreadable/i.test(p) || faultCauseOfText(p) !== null).map((p) => left(root, p));
  } catch (err) {
    return [left(ctx.home, describeError(err))];
  }
}

// A reason that says a read failed: a store or file that cannot be read (busy, locked, damaged, no permission), or a
// fault a read names.
function isReadFailure(reason: string): boolean {
  return /unreadable|cannot be read|could not be (read|checked)|cannot read/i.test(reason) || faultCauseOfText(reason) !== null;
}

// What of the agent's stores could not be read for this plan: the plan's own refusals that say so (the row look of a
// busy database), else the stores the agent's inspection finds unreadable.
async function readFailures(adapter: AgentAdapter<string>, refused: readonly LeftArtifact[], ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
  const own = refused.filter((r) => isReadFailure(r.reason));
  return own.length > 0 ? own : unreadableStores(adapter, ctx);
}

export type Outside = { verdict: 'not-in-workspace'; reason: string } | { verdict: 'refused'; reason: string; unread: LeftArtifact[] };

// Why a purge scoped to `ctx.workspace` refuses the conversation, or null when it belongs there: it verifies there, or
// it is not whole (a purge stopped part-way) and what is left records that workspace and no other. Remains that record
// no workspace are refused with the way to finish them; a whole conversation is judged by its verification alone. A
// verification reads the agent's stores and answers no when a read fails: unless what is left names another workspace,
// a store that could not be read (a database another process holds locked) makes the answer "cannot tell", a refusal
// naming that store, never `not-in-workspace`.
export async function outsideWorkspace(adapter: AgentAdapter<string>, id: string, ctx: HomeDiscoveryContext, refused: readonly LeftArtifact[]): Promise<Outside | null> {
  if (await adapter.verifyArtifact(id, ctx, 'verify')) return null;
  const remains = adapter.remainsBelonging === undefined ? null : await adapter.remainsBelonging(id, ctx);
  if (remains === 'here') return null;
  const why = `${adapter.name} conversation ${id} is not one of workspace ${ctx.workspace}`;
  if (remains !== 'elsewhere') {
    const unread = await readFailures(adapter, refused, ctx);
    const first = unread[0];
    if (first !== undefined) {
      const reason = `cannot tell whether ${adapter.name} conversation ${id} is of workspace ${ctx.workspace}: its store is busy or cannot be read: ${formatArtifact(first, { reason: true })}; nothing was removed, purge again once it can be read`;
      return { verdict: 'refused', reason, unread };
    }
  }
  if (remains !== 'unrecorded') return { verdict: 'not-in-workspace', reason: why };
  return { verdict: 'not-in-workspace', reason: `${why}: what is left of it (a purge stopped part-way) records no workspace; purge it without a workspace (mam purge ${adapter.name} ${id}) to finish` };
}
