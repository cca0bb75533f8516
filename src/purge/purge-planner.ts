import type { AgentAdapter, HomeDiscoveryContext, InUseHolder } from '../agents/types.js';
import { isPlausibleId } from '../ids/agent-id.js';
import { AGENT_NAMES, type AgentName } from '../ids/agent-names.js';
import { UnknownAgentError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { dbWriteRefusal } from '../sqlite/db-write-guard.js';
import { withReadScope } from '../sqlite/read-scope.js';
import { withBusyMemo } from '../sqlite/busy-memo.js';
import { DEAD_COPIES_TABLE } from '../sqlite/finish-dead-copies.js';
import { requireDiscoveryContext, startHomeCheck } from '../validation/discovery-context.js';
import { type Artifact, formatArtifact, type LeftArtifact } from './artifact.js';
import { faultsOfLeft, uniqueFaults } from './purge-fault.js';
import { outsideWorkspace, unreadableStores } from './plan-store-checks.js';
import { stopIfAborted } from '../abort.js';
import type { OtherAgentArtifacts, PurgeHolder, PurgeOptions, PurgePlan } from './purge-plan.js';

/**
 * The discovery context of purge options (the workspace defaults to the home: no adapter's purge depends on it).
 * @public
 */
export function purgeContext(opts: PurgeOptions): HomeDiscoveryContext {
  return { workspace: opts.workspace ?? opts.home, home: opts.home, ...(opts.env === undefined ? {} : { env: opts.env }), ...(opts.signal === undefined ? {} : { signal: opts.signal }) };
}

// The plan's keys in the order a person reads them (what, whether, then the detail; the options last).
function ordered(p: PurgePlan): PurgePlan {
  const { agent, id, verdict, reason, artifacts, refused, holders, hints, mentions, notes, otherAgents, options } = p;
  const faults = uniqueFaults(faultsOfLeft(refused));
  return { agent, id, verdict, reason, artifacts, refused, holders, hints, mentions, notes, faults, otherAgents, options };
}

/** One holder per process: a holder of several files (or named and holding) is listed once, with its first signal. */
function byPid(holders: readonly InUseHolder[]): PurgeHolder[] {
  const out = new Map<number, PurgeHolder>();
  for (const h of holders) if (!out.has(h.pid)) out.set(h.pid, { pid: h.pid, command: h.command, signal: h.signal });
  return [...out.values()];
}

// Rows of a database that must not be written (a link, hard-linked, a sidecar that is not a regular file) are refused.
async function guardDatabases(fs: FileSystemPort, artifacts: readonly Artifact[]): Promise<{ artifacts: Artifact[]; refused: LeftArtifact[] }> {
  const dbs = [...new Set(artifacts.flatMap((a) => (a.kind === 'rows' ? [a.db] : [])))];
  const why = new Map<string, string>();
  for (const db of dbs) {
    const refusal = await dbWriteRefusal(fs, db);
    if (refusal !== null) why.set(db, refusal);
  }
  const refused: LeftArtifact[] = [];
  const kept: Artifact[] = [];
  for (const a of artifacts) {
    const reason = a.kind === 'rows' ? why.get(a.db) : undefined;
    if (reason === undefined) kept.push(a);
    else refused.push({ ...a, reason });
  }
  return { artifacts: kept, refused };
}

/**
 * The agents a {@link PurgePlanner} asks, in order (`auto` asks them in this order), and whether an id is plausible for
 * one (an implausible id reaches no path of that agent).
 * @public
 */
export interface PurgePlannerAgents<A extends string = AgentName> {
  /** Every agent name the planner knows, in the order `auto` asks them. */
  readonly names: readonly A[];
  /** Is `id` plausible for `agent`. */
  plausible(agent: A, id: string): boolean;
}

// The built-in agents, in AGENT_NAMES order, with their own id rules.
const BUILT_INS: PurgePlannerAgents<AgentName> = { names: AGENT_NAMES, plausible: (agent, id) => isPlausibleId(agent, id) };

/**
 * Builds purge plans over adapters (read-only: the in-use probe, the adapters' `planPurge`, `verifyArtifact`, lstat).
 * @public
 */
export class PurgePlanner<A extends string = AgentName> {
  readonly #agents: PurgePlannerAgents<A>;

  /**
   * A planner over the adapters `adapter` gives and the file system the database guard looks at; `agents` are the names
   * it knows and their id plausibility (default: the built-in agents).
   */
  constructor(
    private readonly fs: FileSystemPort,
    private readonly adapter: (agent: A) => AgentAdapter<string>,
    agents?: PurgePlannerAgents<A>,
  ) {
    this.#agents = agents ?? (BUILT_INS as unknown as PurgePlannerAgents<A>);
  }

  // The agents for which `id` is plausible, in the planner's order.
  #plausible(id: string): A[] {
    return this.#agents.names.filter((agent) => this.#agents.plausible(agent, id));
  }

  /** The agents having any artifact of `id` on disk (orphaned leftovers and remains behind a linked dir count), in the planner's order (`AGENT_NAMES`, then outside agents). */
  async candidates(id: string, ctx: HomeDiscoveryContext): Promise<A[]> {
    // Every agent looks at once (by id where its store allows: `owns`), in one read scope (each store opened once); the
    // answer keeps the planner's order.
    const plausible = this.#plausible(id);
    if (plausible.length === 0) return [];
    // The context checked once (its shape, one stat of the home) for every adapter, not once per adapter.
    const checked = await requireDiscoveryContext(this.fs, ctx);
    const has = await withReadScope(() =>
      Promise.all(
        plausible.map((agent) => {
          const a = this.adapter(agent);
          return a.owns === undefined ? a.hasArtifacts(id, checked) : a.owns(id, checked);
        }),
      ),
    );
    return plausible.filter((_, i) => has[i] === true);
  }

  /**
   * The first agent in the planner's order having any artifact of `id` (what `candidates` would list first), or null:
   * the agents are asked in that order and the first owner ends it, so no later agent's store is read.
   */
  async firstCandidate(id: string, ctx: HomeDiscoveryContext): Promise<A | null> {
    const plausible = this.#plausible(id);
    if (plausible.length === 0) return null;
    // The home's stat runs while the agents are asked: each adapter method waits for it as its own check (reading
    // alongside it only where the adapter may), and a bad home still rejects before any answer.
    const { ctx: checked, check } = startHomeCheck(this.fs, ctx);
    const found = withReadScope(async () => {
      for (const agent of plausible) {
        const a = this.adapter(agent);
        // Adapters made by createAdapter (they carry their definition) check their arguments, and so wait for the running
        // stat; any other adapter waits here.
        if (a.definition === undefined) await check;
        if (await (a.owns === undefined ? a.hasArtifacts(id, checked) : a.owns(id, checked))) return agent;
      }
      return null;
    });
    found.catch(() => undefined);
    await check;
    return found;
  }

  /** The plan of purging `id` (see {@link PurgePlan}); changes nothing. */
  async plan(agent: A | 'auto', id: string, opts: PurgeOptions): Promise<PurgePlan> {
    // Every adapter call reads the context's signal (before and after each read); the plan's options never keep it.
    const { signal, ...options } = opts;
    // A database another process holds locked is waited for once per plan, not at each of the plan's reads of it.
    const planned = await withBusyMemo(() => this.#plan(agent, id, options, signal));
    stopIfAborted(signal);
    return ordered({ ...planned, faults: [] });
  }

  // An id found nowhere is `unresolved` only when every store asked could be read: an unreadable store (a damaged
  // header, a missing binding) may hold it, so the plan is refused with the store named, removing nothing.
  async #unreadable(agents: readonly A[], ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const found = await Promise.all(agents.map(async (agent) => unreadableStores(this.adapter(agent), ctx)));
    return found.flat();
  }

  async #plan(agent: A | 'auto', id: string, opts: PurgeOptions, signal: AbortSignal | undefined): Promise<Omit<PurgePlan, 'faults'>> {
    const ctx = purgeContext({ ...opts, ...(signal === undefined ? {} : { signal }) });
    const empty = { artifacts: [], refused: [], holders: [], hints: [], mentions: [], notes: [], otherAgents: [] };
    if (agent === 'auto') {
      const [first, ...rest] = await this.candidates(id, ctx);
      if (first === undefined) {
        const unreadable = await this.#unreadable(this.#plausible(id), ctx);
        if (unreadable.length > 0) {
          return { agent: null, id, options: opts, verdict: 'refused', reason: `no agent has a readable artifact of ${id}, and a store that may hold it cannot be read: ${unreadable[0]?.reason ?? ''}`, ...empty, refused: unreadable };
        }
        return { agent: null, id, options: opts, verdict: 'unresolved', reason: `no agent has any artifact of ${id}`, ...empty };
      }
      const others: OtherAgentArtifacts[] = [];
      for (const other of rest) {
        const p = await this.adapter(other).planPurge(id, ctx);
        others.push({ agent: other, artifacts: [...p.artifacts, ...p.refused] });
      }
      return { ...(await this.planFor(first, id, opts, ctx, true)), otherAgents: others };
    }
    if (!this.#agents.names.includes(agent)) throw new UnknownAgentError(String(agent), this.#agents.names);
    return this.planFor(agent, id, opts, ctx, false);
  }

  async #holders(agent: A, adapter: AgentAdapter<string>, id: string, ctx: HomeDiscoveryContext): Promise<PurgeHolder[]> {
    return this.#agents.plausible(agent, id) ? byPid(await adapter.inUseHolders(id, ctx)) : [];
  }

  private async planFor(agent: A, id: string, opts: PurgeOptions, ctx: HomeDiscoveryContext, known: boolean): Promise<Omit<PurgePlan, 'faults'>> {
    const adapter = this.adapter(agent);
    const holders = await this.#holders(agent, adapter, id, ctx);
    const hints = holders.length > 0 ? adapter.inUseHints(id, ctx) : [];
    const base = { agent, id, options: opts, holders, hints, otherAgents: [] };
    const present = known || (this.#agents.plausible(agent, id) && (await adapter.hasArtifacts(id, ctx)));
    if (!present) {
      const reason = holders.length > 0 ? `${agent} conversation ${id} has no artifact on disk but is in use` : `${agent} has no artifact of ${id}`;
      const unreadable = holders.length > 0 || !this.#agents.plausible(agent, id) ? [] : await this.#unreadable([agent], ctx);
      if (unreadable.length > 0) {
        return { ...base, verdict: 'refused', reason: `${agent} has no readable artifact of ${id}, and its store cannot be read: ${unreadable[0]?.reason ?? ''}`, artifacts: [], refused: unreadable, mentions: [], notes: [] };
      }
      return { ...base, verdict: holders.length > 0 ? 'in-use' : 'unresolved', reason, artifacts: [], refused: [], mentions: [], notes: [] };
    }
    const p = await adapter.planPurge(id, ctx);
    const guarded = await guardDatabases(this.fs, p.artifacts);
    const plan = { ...base, artifacts: guarded.artifacts, refused: [...guarded.refused, ...p.refused], mentions: p.mentions, notes: p.notes };
    if (holders.length > 0) return { ...plan, verdict: 'in-use', reason: `${agent} conversation ${id} is in use by ${holders.map((h) => `pid ${h.pid} (${h.signal})`).join(', ')}` };
    // Only old copies of deleted rows left (a purge interrupted past its delete): nothing of the conversation is left to
    // say which workspace it was of, and wiping them removes no live row, so the same scoped command can finish it.
    const copiesOnly = p.artifacts.length > 0 && p.artifacts.every((a) => a.kind === 'rows' && a.table === DEAD_COPIES_TABLE);
    const outside = opts.workspace === undefined || copiesOnly ? null : await outsideWorkspace(adapter, id, { ...ctx, workspace: opts.workspace }, plan.refused);
    if (outside?.verdict === 'refused') {
      const listed = new Set(plan.refused.map((r) => formatArtifact(r, { reason: true })));
      return { ...plan, refused: [...outside.unread.filter((u) => !listed.has(formatArtifact(u, { reason: true }))), ...plan.refused], verdict: 'refused', reason: outside.reason };
    }
    if (outside !== null) return { ...plan, verdict: 'not-in-workspace', reason: outside.reason };
    if (guarded.refused.length > 0) {
      return { ...plan, verdict: 'refused', reason: `a database of ${id} must not be written: ${guarded.refused[0]?.reason ?? ''}` };
    }
    // A plan that would leave anything of the conversation is no full purge: `partial` when it removes some, `refused`
    // when it could remove nothing (an unreadable store, everything behind a refusal).
    const first = plan.refused[0];
    if (plan.artifacts.length === 0) {
      const why = first === undefined ? `${agent} conversation ${id} has artifacts on disk, but none this purge can remove` : `nothing of ${agent} conversation ${id} can be removed: ${formatArtifact(first, { reason: true })}`;
      return { ...plan, verdict: 'refused', reason: why };
    }
    if (first !== undefined) {
      return { ...plan, verdict: 'partial', reason: `would remove ${plan.artifacts.length} artifact(s) of ${agent} conversation ${id} and leave ${plan.refused.length}: ${formatArtifact(first, { reason: true })}` };
    }
    return { ...plan, verdict: 'purge', reason: `would remove ${plan.artifacts.length} artifact(s) of ${agent} conversation ${id}` };
  }
}
