import { type AdapterSet, adaptersOf } from '../agents/adapters-of.js';
import type { AgentAdapter, HomeDiscoveryContext } from '../agents/types.js';
import type { AgentName } from '../ids/agent-names.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import type { PurgeOptions, PurgePlan } from './purge-plan.js';
import type { PurgePlanner } from './purge-planner.js';
import type { PurgeResult } from './purge-result.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkPurgeOptions, checkPurgeTarget } from './purge-args.js';
import { checkSignalOption, stopIfAborted } from '../abort.js';
import { releaseKept } from '../sqlite/kept-connections.js';
import { withSqliteOpenFaults } from '../sqlite/driver.js';
import { makeAdapter } from '../agents/make-adapter.js';
import { createAdapter } from '../agents/contract/create-adapter.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { type AgentCatalog, agentCatalog, checkOutsideAgents, outsideAdapter } from '../agents/outside-agents.js';
import { faultOf, faultsOfLeft, type PurgeFault, uniqueFaults } from './purge-fault.js';
import { formatArtifact, type Artifact, type LeftArtifact } from './artifact.js';
import type { OtherAgentArtifacts } from './purge-plan.js';

export type { PurgeOptions } from './purge-plan.js';

/**
 * Options of {@link PurgeService}: the ports, and agents defined outside the package.
 * @public
 */
export interface PurgeServiceOptions<Extra extends string = never> {
  /** The ports (those not given are Node's, {@link nodePorts}). */
  ports?: Partial<Ports>;
  /**
   * Agents defined outside the package (`defineAgent`), accepted by name like the built-ins and asked by `auto` after
   * them, in the order given. A name of a built-in agent, or one given twice, throws `InvalidArgumentError`.
   */
  agents?: readonly AgentDefinition<Extra>[];
}

/**
 * Purges one conversation by agent or `auto` (resolved from what is on disk): `plan` previews it (changing nothing),
 * `execute` runs a plan — the in-use gate again first, and nothing removed when the disk no longer matches it — and
 * `purge` is both. A refused purge removes nothing. Agents defined outside the package are passed in as `agents`
 * (`Extra` is their names).
 * @public
 */
export class PurgeService<Extra extends string = never> {
  readonly #ports: Ports;
  readonly #adapters: AdapterSet;
  #planner: PurgePlanner<AgentName | Extra> | undefined;
  readonly #agents: AgentCatalog<Extra>;

  /**
   * A service on the given ports; those not given are Node's ({@link nodePorts}). It shares the ports' adapter set
   * (`adaptersOf`); an outside agent's adapter is made once per ports and definition.
   * @example
   * ```ts
   * const service = new PurgeService({ agents: [notes] }); // notes = defineAgent({ name: 'notes', … })
   * const result = await service.purge('auto', id, { home }); // the built-ins are asked first, then notes
   * ```
   */
  constructor(opts: PurgeServiceOptions<Extra> = {}) {
    this.#agents = agentCatalog(checkOutsideAgents<Extra>(opts.agents, 'opts.agents'));
    this.#ports = resolvePorts(opts.ports);
    this.#adapters = adaptersOf(this.#ports);
  }

  // The planner (and what it reads with) is loaded on the first call that plans, so importing @mam/core does not load it.
  async #plannerOf(): Promise<PurgePlanner<AgentName | Extra>> {
    if (this.#planner === undefined) {
      const { PurgePlanner } = await import('./purge-planner.js');
      this.#planner ??= new PurgePlanner<AgentName | Extra>(this.#ports.fs, (a) => this.adapter(a), this.#agents);
    }
    return this.#planner;
  }

  /** The shared adapter of an agent, on this service's ports (plans and resolution; a purge runs on a fresh one). */
  adapter(agent: AgentName): AgentAdapter<AgentName>;
  /** The shared adapter of an outside agent given to this service, on its ports. */
  adapter(agent: AgentName | Extra): AgentAdapter<AgentName | Extra>;
  adapter(agent: AgentName | Extra): AgentAdapter<AgentName | Extra> {
    const def = this.#agents.outside(agent);
    return def === undefined ? this.#adapters.get(agent as AgentName) : outsideAdapter(this.#ports, def);
  }

  /**
   * Which agent has artifacts of `id` on disk (orphaned leftovers and remains behind a linked dir count), or null; the
   * first in `AGENT_NAMES` order, then the outside agents' order, when several do (asked in that order: an agent after
   * the first owner is not asked).
   */
  async resolve(id: string, ctx: HomeDiscoveryContext): Promise<AgentName | Extra | null> {
    // Only the first owner is the answer: once an agent owns the id, the later ones are not asked.
    return (await this.#plannerOf()).firstCandidate(id, ctx);
  }

  /**
   * What a purge would do, changing nothing: every artifact it would remove, what it would refuse and why, the live
   * holders, the shared files naming the id, and other agents' artifacts of the id (`auto`).
   * @example
   * ```ts
   * const plan = await service.plan('auto', id, { home });
   * if (plan.verdict === 'purge' && confirm(plan.artifacts.map((a) => formatArtifact(a)))) await service.execute(plan);
   * ```
   */
  async plan(agent: AgentName | Extra | 'auto', id: string, opts: PurgeOptions): Promise<PurgePlan> {
    const t = checkPurgeTarget(agent, id, this.#agents.names);
    const { dryRun: _ignored, ...options } = await checkPurgeOptions(this.#ports.fs, opts);
    stopIfAborted(options.signal);
    return (await this.#plannerOf()).plan(t.agent, t.id, options);
  }

  /**
   * Runs a plan: plans again (the in-use gate included) and removes the conversation only when the disk still matches —
   * no new artifact, no path of another kind (a file that became a link), no rows grown, no new refusal; otherwise
   * `changed`, removing nothing. `opts.signal` stops it before the removal begins (rejecting with `signal.reason`,
   * nothing removed); once the removal has begun it runs to its end and the result says what it did.
   */
  async execute(plan: PurgePlan, opts: { signal?: AbortSignal } = {}): Promise<PurgeResult> {
    const signal = checkSignalOption(opts);
    stopIfAborted(signal);
    if (typeof plan !== 'object' || plan === null) throw new InvalidArgumentError('plan', 'must be a plan from PurgeService.plan');
    if (!Array.isArray(plan.artifacts) || !Array.isArray(plan.refused) || !Array.isArray(plan.otherAgents)) {
      throw new InvalidArgumentError('plan', 'must be a plan from PurgeService.plan (artifacts, refused and otherAgents are lists)');
    }
    if (plan.agent === null) return this.#unowned(plan, signal);
    const { agent, id } = checkPurgeTarget(plan.agent, plan.id, this.#agents.names) as { agent: AgentName | Extra; id: string };
    const { signal: _kept, ...options } = await checkPurgeOptions(this.#ports.fs, plan.options);
    const fresh = await (await this.#plannerOf()).plan(agent, id, { ...options, ...(signal === undefined ? {} : { signal }) });
    switch (fresh.verdict) {
      case 'in-use':
        return { kind: 'in-use', agent, holders: fresh.holders, hints: fresh.hints, inUse: true };
      case 'unresolved':
        return { kind: 'unresolved', agent: null };
      case 'not-in-workspace':
        return { kind: 'not-in-workspace', agent, workspace: options.workspace ?? '', reason: fresh.reason, inUse: false };
      case 'refused':
      case 'partial':
      case 'purge':
        break;
      default: {
        const never: never = fresh.verdict;
        return never;
      }
    }
    const [{ planDrift }, { faultNotingFs }, { purgeContext }] = await Promise.all([import('./plan-drift.js'), import('./fault-noting-fs.js'), import('./purge-planner.js')]);
    const changes = planDrift(plan, fresh);
    if (changes.length > 0) return { kind: 'changed', agent, changes, inUse: false };
    if (fresh.verdict === 'refused') return { kind: 'refused', agent, refused: fresh.refused, reason: fresh.reason, faults: fresh.faults, inUse: false };
    // Every failed call of the purge is noted with its path, so what it leaves can name its cause (EROFS, ENOSPC, EIO, a
    // missing binding) although the adapters' residual says only what stays.
    const noted: PurgeFault[] = [];
    const note = (err: unknown, path: string | null): void => {
      const f = faultOf(err, path);
      if (f !== null) noted.push(f);
    };
    const fs = faultNotingFs(this.#ports.fs, note);
    // An adapter over the fault-noting fs: every failed call of this purge is noted for its report.
    const def = this.#agents.outside(agent);
    const adapter: AgentAdapter<string> = def === undefined ? makeAdapter(agent as AgentName, { ...this.#ports, fs }) : createAdapter(def, { ...this.#ports, fs });
    const ctx = purgeContext(options);
    // The last look at the signal: from here the removal runs to its end (the context above has no signal, so no adapter
    // call of the removal or of the report after it can stop half-way).
    stopIfAborted(signal);
    // No read connection of this process, kept from the plan or an earlier status, outlives the files removed now.
    releaseKept(this.#ports.fs);
    try {
      return await withSqliteOpenFaults(note, async () => {
        // The adapter's report says what it removed and what is left, with why (a swap, a failed row delete).
        const report = adapter.purge !== undefined ? await adapter.purge(id, ctx) : { removed: await adapter.purgeArtifacts(id, ctx), residual: await adapter.residualArtifacts(id, ctx) };
        const { removed: purged, residual } = report;
        const [mentions, after] = await Promise.all([adapter.mentions(id, ctx), adapter.purgeNotesOf?.(id, ctx) ?? []]);
        // Notes known before (e.g. a remote copy out of reach) and those the removal itself found (a busy WAL), once each.
        const notes = [...new Set([...fresh.notes, ...after])];
        // Nothing left by name, yet the id still has an artifact: the outcome says so rather than claim the purge.
        const still = residual.length === 0 && (await adapter.hasArtifacts(id, ctx));
        if (still) notes.push(`something of ${id} is still on disk that the residual does not name`);
        return outcome(agent, { purged, residual, mentions, notes, still, otherAgents: plan.otherAgents }, uniqueFaults([...faultsOfLeft(residual), ...noted]));
      });
    } finally {
      releaseKept(fs);
    }
  }

  // A plan that found no agent owning the id: planned again, it is refused (a store that may hold it cannot be read) or unresolved.
  async #unowned(plan: PurgePlan, signal: AbortSignal | undefined): Promise<PurgeResult> {
    if (plan.verdict !== 'refused') return { kind: 'unresolved', agent: null };
    const { signal: _kept, ...options } = await checkPurgeOptions(this.#ports.fs, plan.options);
    const fresh = await (await this.#plannerOf()).plan('auto', plan.id, { ...options, ...(signal === undefined ? {} : { signal }) });
    if (fresh.agent !== null || fresh.verdict !== 'refused') return { kind: 'unresolved', agent: null };
    return { kind: 'refused', agent: null, refused: fresh.refused, reason: fresh.reason, faults: fresh.faults, inUse: false };
  }

  /**
   * Plans and executes; with `dryRun`, returns the plan (`dry-run`) and changes nothing. `signal` is honoured as by
   * `plan` and `execute`: an abort before the removal begins rejects with `signal.reason` and removes nothing.
   * @example
   * ```ts
   * const result = await new PurgeService().purge('auto', id, { home });
   * if (result.kind === 'in-use') report(result.holders, result.hints); // nothing was removed
   * ```
   */
  async purge(agent: AgentName | Extra | 'auto', id: string, opts: PurgeOptions & { dryRun?: boolean }): Promise<PurgeResult> {
    const { dryRun, ...options } = await checkPurgeOptions(this.#ports.fs, opts);
    const plan = await this.plan(agent, id, options);
    if (dryRun === true) return { kind: 'dry-run', agent: plan.agent, plan, inUse: plan.holders.length > 0 };
    if (plan.verdict === 'unresolved') return { kind: 'unresolved', agent: null };
    return this.execute(plan, options.signal === undefined ? {} : { signal: options.signal });
  }
}

interface Done {
  purged: Artifact[];
  residual: LeftArtifact[];
  mentions: Artifact[];
  notes: string[];
  /** True when nothing is named left but the id still has an artifact. */
  still: boolean;
  otherAgents: OtherAgentArtifacts[];
}

// `purged` only when nothing is left; `partial` when something was removed and something stays; `refused` when nothing was.
function outcome(agent: string, d: Done, faults: PurgeFault[]): PurgeResult {
  if (d.residual.length === 0 && !d.still) return { kind: 'purged', agent, purged: d.purged, residual: [], mentions: d.mentions, notes: d.notes, otherAgents: d.otherAgents, inUse: false };
  if (d.purged.length > 0) return { kind: 'partial', agent, purged: d.purged, residual: d.residual, faults, mentions: d.mentions, notes: d.notes, otherAgents: d.otherAgents, inUse: false };
  const first = faults[0];
  const why = first !== undefined ? `${first.cause}: ${first.detail}` : d.residual[0] !== undefined ? formatArtifact(d.residual[0], { reason: true }) : (d.notes.at(-1) ?? 'nothing could be removed');
  return { kind: 'refused', agent, refused: d.residual, reason: `nothing of ${agent} conversation was removed (${why})`, faults, inUse: false };
}
