import { describeError } from '../../errors.js';
import { InvalidArgumentError } from '../../invalid-argument-error.js';
import type { Ports } from '../../ports/index.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { withReadScope } from '../../sqlite/read-scope.js';
import { verifyCanonical } from '../common/batch-memo.js';
import { decideCapture } from '../common/capture.js';
import { psHint } from '../common/in-use.js';
import type { AdapterPurgePlan, AdapterPurgeReport, AgentAdapter, CaptureResult, CaptureRow, HomeDiscoveryContext, VerifyQuery } from '../types.js';
import type { AgentDefinition } from './agent-definition.js';
import type { AgentStore, StorePurgeOutcome } from './agent-store.js';
import { checkDefinition } from './check-definition.js';
import { methodGuard } from './method-guard.js';
import { lastPurgeOf, notePurge } from './purge-record.js';
import { residualAfter } from './residual-after.js';
import { surveyOf } from './survey-of.js';

const EMPTY_PLAN: AdapterPurgePlan = { artifacts: [], refused: [], mentions: [], notes: [] };

/**
 * The public adapter of an agent definition over a set of ports: every method checks its arguments once (throwing
 * `InvalidArgumentError` naming the bad one), canonicalises the id once (an implausible id reaches no path and answers
 * "nothing"), and asks the definition's store. `verifyArtifact` is a batch of one, `conversationInUse` asks for the
 * holders, the capture rule and the purge report are the same for every agent. Holds no memory of its own: what a purge
 * left is in its report (`purge`), and the residual after `purgeArtifacts` reads the last purge of the id on these ports.
 * @example
 * ```ts
 * const adapter = createAdapter(myAgent, nodePorts());
 * const ids = await adapter.discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export function createAdapter<N extends string>(definition: AgentDefinition<N>, ports: Ports): AgentAdapter<N> {
  checkDefinition(definition);
  if (typeof ports !== 'object' || ports === null) throw new InvalidArgumentError('ports', 'must be an object of ports ({ fs, proc, herdr, clock })');
  const def = definition;
  const name = def.name;
  const canonical = (id: unknown): string | null => (typeof id === 'string' ? def.ids.canonical(id) : null);
  const guard = methodGuard(() => ports.fs, (id) => canonical(id) !== null, def.reads ?? { kind: 'any' });
  let opened: Promise<AgentStore> | undefined;
  const store = (): Promise<AgentStore> => (opened ??= Promise.resolve().then(() => def.store(ports, def)));
  const claimedBySibling = (c: string, ctx: HomeDiscoveryContext): boolean => (ctx.siblingClaimedIds ?? []).some((s) => canonical(s) === c);

  // Each public method: its argument kinds, then the work on the canonical id (null: an implausible one, `none` answers).
  const byId = <T>(method: string, none: T, work: (s: AgentStore, c: string, ctx: HomeDiscoveryContext) => Promise<T>) =>
    (id: string, ctx: unknown): Promise<T> =>
      guard.call(method, ['id', 'ctx'], [id, ctx], async ([i, c]) => {
        const cid = canonical(i);
        return cid === null ? none : work(await store(), cid, c as HomeDiscoveryContext);
      });
  const withCtx = <T>(method: string, work: (s: AgentStore, ctx: HomeDiscoveryContext) => Promise<T>) =>
    (ctx: unknown): Promise<T> => guard.call(method, ['ctx'], [ctx], async ([c]) => work(await store(), c as HomeDiscoveryContext));

  const verifyOne = async (s: AgentStore, c: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover'): Promise<boolean> => {
    try {
      if (mode === 'discover' && claimedBySibling(c, ctx)) return false;
      return (await s.verifyMany([{ id: c, workspace: ctx.workspace }], ctx, mode))[0] === true;
    } catch {
      return false;
    }
  };
  const residualOf = async (s: AgentStore, c: string, ctx: HomeDiscoveryContext, outcome: StorePurgeOutcome | undefined): Promise<LeftArtifact[]> => {
    const now = await s.residual(c, ctx).catch((err: unknown): LeftArtifact[] => [{ kind: 'dir', path: ctx.home, reason: `${name} residual check failed: ${describeError(err)}` }]);
    return residualAfter(now, outcome);
  };
  const execute = async (s: AgentStore, c: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome> => {
    const outcome = await s.executePurge(c, ctx).catch((err: unknown): StorePurgeOutcome => ({
      removed: [],
      rowFailures: [{ kind: 'dir', path: ctx.home, reason: `${name} purge failed: ${describeError(err)}` }],
    }));
    notePurge(ports, name, c, outcome);
    return outcome;
  };
  const hasArtifacts = async (s: AgentStore, c: string, ctx: HomeDiscoveryContext): Promise<boolean> =>
    s.hasArtifacts !== undefined ? s.hasArtifacts(c, ctx) : (await residualOf(s, c, ctx, undefined)).length > 0;

  const adapter: AgentAdapter<N> = {
    name,
    ownKey: def.ownKey,
    idLifecycle: def.idLifecycle,
    ...(def.sessionEnvVars[0] === undefined ? {} : { sessionEnvVar: def.sessionEnvVars[0] }),
    ...(def.launch.inputPlaceholder === undefined ? {} : { inputPlaceholder: def.launch.inputPlaceholder }),
    ...(def.launch.inputPlaceholderPattern === undefined ? {} : { inputPlaceholderPattern: def.launch.inputPlaceholderPattern }),
    residentChildren: def.launch.residentChildren ?? [],
    definition: def,
    resumeArgs(id: string): string[] {
      const c = canonical(id);
      return c === null ? [] : def.launch.resumeArgs(c);
    },
    discover: withCtx('discover', (s, ctx) => s.discover(ctx)),
    verifyArtifact(id: string, ctx: unknown, mode?: 'verify' | 'discover'): Promise<boolean> {
      return guard.call('verifyArtifact', ['id', 'ctx', 'mode'], [id, ctx, mode], async ([i, c, m]) => {
        const cid = canonical(i);
        return cid === null ? false : verifyOne(await store(), cid, c as HomeDiscoveryContext, m === 'discover' ? 'discover' : 'verify');
      });
    },
    verifyMany(queries: readonly VerifyQuery[], ctx: unknown): Promise<boolean[]> {
      return guard.call('verifyMany', ['queries', 'ctx'], [queries, ctx], async ([q, c]) => {
        const s = await store();
        const context = c as HomeDiscoveryContext;
        return verifyCanonical(q as VerifyQuery[], context.workspace, canonical, (batch) =>
          withReadScope(() => s.verifyMany(batch, context, 'verify')).catch(() => batch.map(() => false)),
        );
      });
    },
    captureActiveSessionId(row: CaptureRow, ctx: unknown): Promise<CaptureResult> {
      return guard.call('captureActiveSessionId', ['row', 'ctx'], [row, ctx], async ([r, c]) => {
        const s = await store();
        const context = c as HomeDiscoveryContext;
        return s.capture !== undefined ? s.capture(r as CaptureRow, context, adapter) : sharedCapture(adapter, canonical, r as CaptureRow, context);
      });
    },
    inUseHolders: byId('inUseHolders', [], (s, c, ctx) => s.holders(c, ctx)),
    conversationInUse: byId('conversationInUse', false, async (s, c, ctx) => (await s.holders(c, ctx)).length > 0),
    inUseHints(id: string, ctx: unknown): string[] {
      return guard.callSync(['id', 'ctx'], [id, ctx], ([i, c]) => {
        const cid = canonical(i);
        if (cid === null) return [];
        return def.inUseHints !== undefined ? def.inUseHints(cid, c as HomeDiscoveryContext, ports.proc.env()) : [psHint(cid)];
      });
    },
    planPurge: byId('planPurge', EMPTY_PLAN, (s, c, ctx) =>
      s.planPurge(c, ctx).catch((err: unknown) => ({ ...EMPTY_PLAN, refused: [{ kind: 'dir' as const, path: ctx.home, reason: `${name} purge plan failed: ${describeError(err)}` }] })),
    ),
    purge: byId('purge', { removed: [], residual: [] } as AdapterPurgeReport, async (s, c, ctx) => {
      const outcome = await execute(s, c, ctx);
      return { removed: outcome.removed, residual: await residualOf(s, c, ctx, outcome) };
    }),
    purgeArtifacts: byId('purgeArtifacts', [] as Artifact[], async (s, c, ctx) => (await execute(s, c, ctx)).removed),
    residualArtifacts: byId('residualArtifacts', [] as LeftArtifact[], (s, c, ctx) => residualOf(s, c, ctx, lastPurgeOf(ports, name, c))),
    mentions: byId('mentions', [] as Artifact[], (s, c, ctx) => s.mentions(c, ctx).catch(() => [])),
    hasArtifacts: byId('hasArtifacts', false, (s, c, ctx) => hasArtifacts(s, c, ctx)),
    owns: byId('owns', false, (s, c, ctx) => (s.owns !== undefined ? s.owns(c, ctx) : hasArtifacts(s, c, ctx))),
    remainsBelonging: byId('remainsBelonging', null, async (s, c, ctx) => (s.remainsBelonging !== undefined ? s.remainsBelonging(c, ctx) : null)),
    purgeNotesOf: byId('purgeNotesOf', [] as string[], async (s, c, ctx) => (s.purgeNotes !== undefined ? s.purgeNotes(c, ctx).catch(() => []) : [])),
    preflight: withCtx('preflight', async (s, ctx) => (s.preflight === undefined ? { ok: true, exitCode: 0 } : s.preflight(ctx).catch(() => ({ ok: false, exitCode: 1 })))),
    authOk: withCtx('authOk', async (s, ctx) => (s.preflight === undefined ? true : (await s.preflight(ctx).catch(() => ({ ok: false, exitCode: 1 }))).ok)),
    inspect: withCtx('inspect', (s, ctx) => inspectOf(name, s, ctx)),
    survey: withCtx('survey', async (s, ctx) => surveyOf(await inspectOf(name, s, ctx), ctx)),
  };
  // Only an agent whose ids move answers where a conversation continues (the others never ask their store).
  if (def.ids.moves === true) adapter.currentId = byId('currentId', null as string | null, async (s, c, ctx) => (s.currentId !== undefined ? s.currentId(c, ctx) : c));
  return adapter;
}

async function inspectOf(name: string, s: AgentStore, ctx: HomeDiscoveryContext): ReturnType<AgentStore['inspect']> {
  try {
    return await s.inspect(ctx);
  } catch (err) {
    return { agent: name, presence: 'present', root: null, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`], readable: false };
  }
}

// The shared capture rule: the one candidate that verifies in `discover` mode, is newer than the row's epoch and no
// other row records; otherwise why not.
async function sharedCapture(adapter: AgentAdapter<string>, canonical: (id: unknown) => string | null, row: CaptureRow, ctx: HomeDiscoveryContext): Promise<CaptureResult> {
  const claimed = new Set((ctx.siblingClaimedIds ?? []).map((i) => canonical(i) ?? i));
  const { epoch: given, siblingClaimedIds: _claimed, ...base } = ctx;
  const epoch = given ?? row.herdr_session_epoch ?? undefined;
  const all = await adapter.discover(base);
  const fresh = epoch === undefined ? new Set(all) : new Set(await adapter.discover({ ...base, epoch }));
  const candidates = await Promise.all(
    all.map(async (id) => ({ id, verified: await adapter.verifyArtifact(id, base, 'discover'), newer: fresh.has(id), claimed: claimed.has(id) })),
  );
  return decideCapture(candidates);
}
