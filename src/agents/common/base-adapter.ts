import { describeError } from '../../errors.js';
import { normalizeAgentId } from '../../ids/agent-id.js';
import { type AgentName, ownKey } from '../../ids/agent-names.js';
import type { Ports } from '../../ports/index.js';
import type { FileHolder, ProcessInfo } from '../../ports/process.js';
import type { SessionRow } from '../../registry/session-row.js';
import { type Artifact, asLeft, formatArtifact, hasReason, type LeftArtifact } from '../../purge/artifact.js';
import type { AdapterPurgePlan, AgentAdapter, CaptureResult, HomeDiscoveryContext, InUseHolder, PreflightResult, StoreSurvey, VerifyQuery } from '../types.js';
import { withReadScope } from '../../sqlite/read-scope.js';
import { surveyRoot } from './store-survey.js';
import { agentEnv } from './agent-env.js';
import { type ArtifactPath, leftArtifacts, planArtifactPaths, removeArtifacts } from './artifacts.js';
import { REMOVAL_REASONS } from '../../paths/removal-reasons.js';
import { decideCapture } from './capture.js';
import { findInUseHolders, psHint } from './in-use.js';
import { InvalidArgumentError } from '../../invalid-argument-error.js';
import { guardAdapterMethods } from '../contract/legacy-guard.js';
import { withWorkspace } from '../../validation/discovery-context.js';

/**
 * What every adapter shares: id normalisation before any path is built, the in-use check, purge/residual/hasArtifacts
 * over the adapter's list of artifact paths, and the capture rule. An adapter supplies where things are.
 * @public
 */
export abstract class BaseAdapter implements AgentAdapter {
  /** {@inheritDoc AgentAdapter.name} */
  abstract readonly name: AgentName;
  /** {@inheritDoc AgentAdapter.idLifecycle} */
  abstract readonly idLifecycle: 'pre_assigned' | 'post_discovered';
  /** {@inheritDoc AgentAdapter.sessionEnvVar} */
  readonly sessionEnvVar?: string;
  /** {@inheritDoc AgentAdapter.residentChildren} */
  readonly residentChildren: readonly string[] = [];
  /**
   * True when `discover`, `verifyArtifact`, `verifyMany`, `owns`, `hasArtifacts` and `currentId` only read files (no spawn,
   * no write): the argument check's stat of the home then runs while they read (a bad home still rejects, their answer dropped).
   */
  protected readonly storeReadsOnly: boolean = false;
  /**
   * True when those same methods only read files until they spawn, and every spawn of theirs first awaits `homeChecked`
   * (src/validation/discovery-context.ts): the home's stat then runs while they read too, and nothing is spawned for a bad home.
   */
  protected readonly spawnsAfterHomeCheck: boolean = false;
  /**
   * True when `discover`, `verifyArtifact` and `verifyMany` (of an adapter whose `storeReadsOnly` or `spawnsAfterHomeCheck`
   * is true) look at a path inside the home and record it (`proveHome`, src/validation/home-proof.ts): the argument
   * check's stat of the home is then taken only when nothing they looked at proved the home a directory.
   */
  protected readonly provesHome: boolean = false;

  // Why the last row delete of a canonical id failed, until the next purge of it: the residual reports it.
  readonly #rowDeleteFailures = new Map<string, LeftArtifact[]>();
  // The paths the last purge of a canonical id found swapped under it, until the next purge: the residual says so.
  readonly #swapped = new Map<string, Set<string>>();

  /** Builds the adapter over `ports`, through which every read, removal and process probe goes; every public method checks its arguments first. */
  constructor(
    /** The ports every read, removal and process probe goes through. */
    protected readonly ports: Ports,
  ) {
    if (typeof ports !== 'object' || ports === null) throw new InvalidArgumentError('ports', 'must be an object of ports ({ fs, proc, herdr, clock })');
    guardAdapterMethods(this, () => this.ports.fs, (id) => this.canonical(id) !== null);
  }

  /** {@inheritDoc AgentAdapter.ownKey} */
  get ownKey(): string {
    return ownKey(this.name);
  }

  /** {@inheritDoc AgentAdapter.discover} */
  abstract discover(ctx: HomeDiscoveryContext): Promise<string[]>;
  /** {@inheritDoc AgentAdapter.verifyArtifact} */
  abstract verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode?: 'verify' | 'discover'): Promise<boolean>;

  /**
   * `verifyArtifact` in `verify` mode for many ids, in order (false for one whose check fails), in one read scope: each store is opened once for the batch.
   * @example
   * ```ts
   * const [a, b] = await adapter.verifyMany([{ id: idA }, { id: idB, workspace: '/repo/sub' }], { workspace: '/repo', home });
   * ```
   */
  async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    // One read scope: every database the checks read is opened once for the batch, not once per id.
    // Each query's context checked once per workspace (the rest is the checked batch context's), not parsed whole per id.
    const byWorkspace = new Map<string, HomeDiscoveryContext>();
    const ctxOf = (w: string): HomeDiscoveryContext => {
      let c = byWorkspace.get(w);
      if (c === undefined) byWorkspace.set(w, (c = withWorkspace(ctx, w)));
      return c;
    };
    return withReadScope(() =>
      Promise.all(
        queries.map(async (q) => {
          try {
            return await this.verifyArtifact(q.id, q.workspace === undefined ? ctx : ctxOf(q.workspace), 'verify');
          } catch {
            return false;
          }
        }),
      ),
    );
  }

  /** The conversation's own artifact paths, in removal order (key files before the file tying them to the id). */
  protected abstract artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]>;

  /** Files whose open holders mean the conversation is live. */
  protected async heldPaths(_id: string, _ctx: HomeDiscoveryContext): Promise<string[]> {
    return [];
  }

  /** Holders of `heldPaths` that do not count. */
  protected ignoreHolder(_holder: FileHolder, _proc: ProcessInfo | undefined): boolean {
    return false;
  }

  /** Further in-use evidence from the same process snapshot. */
  protected async extraInUse(_id: string, _ctx: HomeDiscoveryContext, _snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> {
    return [];
  }

  /** Database rows naming the id (kind `rows`); an entry carrying a `reason` is a database that could not be read. */
  protected async dbRows(_id: string, _ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    return [];
  }

  /** Deletes the database rows naming the id; returns the rows deleted. */
  protected async purgeDbRows(_id: string, _ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    return [];
  }

  /** Why a purge of the (canonical) id would remove nothing at all (an unknown layout naming it …); empty when it may run. */
  protected async purgeRefusals(_id: string, _ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    return [];
  }

  /** What a person should know about a purge of the id that is no artifact (the WAL still holds deleted text …). */
  protected async purgeNotes(_id: string, _ctx: HomeDiscoveryContext): Promise<string[]> {
    return [];
  }
  /** {@inheritDoc AgentAdapter.purgeNotesOf} */
  async purgeNotesOf(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const c = this.canonical(id);
    return c === null ? [] : this.purgeNotes(c, ctx).catch(() => []);
  }


  /** The canonical id, or null when the id is not plausible for this agent (it then reaches no path). */
  protected canonical(id: unknown): string | null {
    return normalizeAgentId(this.name, id);
  }

  /** True when another row records this (canonical) id: `discover` mode never offers it. */
  protected claimedBySibling(canonicalId: string, ctx: HomeDiscoveryContext): boolean {
    return (ctx.siblingClaimedIds ?? []).some((s) => this.canonical(s) === canonicalId);
  }

  /** The environment that locates this agent's dirs (see `agentEnv`). */
  protected env(ctx: HomeDiscoveryContext): Promise<Readonly<Record<string, string | undefined>>> {
    return agentEnv(this.ports.fs, this.ports.proc, ctx);
  }

  /** {@inheritDoc AgentAdapter.inUseHolders} */
  async inUseHolders(id: string, ctx: HomeDiscoveryContext): Promise<InUseHolder[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    return findInUseHolders(this.ports.proc, {
      agent: this.name,
      id: c,
      heldPaths: await this.heldPaths(c, ctx),
      ignoreHolder: (h, p) => this.ignoreHolder(h, p),
      extra: (snapshot) => this.extraInUse(c, ctx, snapshot),
    });
  }

  /** {@inheritDoc AgentAdapter.conversationInUse} */
  async conversationInUse(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    return (await this.inUseHolders(id, ctx)).length > 0;
  }

  /** Commands a person can run to see the holder; by default a `ps` line searching for the id. */
  inUseHints(id: string, _ctx: HomeDiscoveryContext): string[] {
    const c = this.canonical(id);
    return c === null ? [] : [psHint(c)];
  }

  /**
   * Deletes the id's database rows, then removes its artifact paths in order; returns what was removed. Never throws: a
   * failed row delete is kept and reported by {@link BaseAdapter.residualArtifacts} (with the rows that stay).
   */
  async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    // Paths first: some are found through the rows the next step deletes.
    const paths = await this.artifactPaths(c, ctx);
    this.noteRowDeleteFailures(c, []);
    const rows = await this.purgeDbRows(c, ctx).catch((err: unknown): Artifact[] => {
      this.noteRowDeleteFailures(c, [{ kind: 'dir', path: ctx.home, reason: `${this.name} database rows could not be deleted: ${describeError(err)}` }]);
      return [];
    });
    const files = await removeArtifacts(this.ports.fs, paths);
    this.noteRemovalLeft(c, files.residual);
    return [...rows, ...files.purged];
  }

  /**
   * Records what the removals of the id's purge left with a swap as their reason (`[]` clears it), so the residual names
   * the reason; an adapter that removes by itself calls it once with everything its removals left.
   */
  protected noteRemovalLeft(id: string, left: readonly LeftArtifact[]): void {
    const swapped = left.flatMap((l) => (l.kind !== 'rows' && l.reason === REMOVAL_REASONS.swapped ? [l.path] : []));
    if (swapped.length > 0) this.#swapped.set(id, new Set(swapped));
    else this.#swapped.delete(id);
  }

  /** A residual artifact as the report shows it: with the swap as its reason when the last purge found it swapped. */
  protected residualEntry(id: string, left: LeftArtifact): LeftArtifact {
    return left.kind !== 'rows' && this.#swapped.get(id)?.has(left.path) === true ? { ...left, reason: REMOVAL_REASONS.swapped } : left;
  }

  /**
   * The id's artifact paths still on disk, then its database rows still on record. A row check that fails is one entry,
   * and so is the failure of this adapter's last row delete while rows (or doubt) remain.
   */
  async residualArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const files = await leftArtifacts(this.ports.fs, await this.artifactPaths(c, ctx));
    const rows = await this.dbRows(c, ctx).catch((err: unknown): Artifact[] => [
      { kind: 'dir', path: ctx.home, reason: `${this.name} database rows could not be checked: ${describeError(err)}` } as LeftArtifact,
    ]);
    return [...files.map((f) => this.residualEntry(c, f)), ...rows.map(asLeft), ...this.rowDeleteFailures(c, rows)];
  }

  /**
   * What a purge would remove: the artifact paths that exist and are confined (a path behind a linked dir is refused),
   * the database rows naming the id; everything is refused when {@link BaseAdapter.purgeRefusals} gives a reason. Changes
   * nothing; never throws (a failed look is one refusal).
   */
  async planPurge(id: string, ctx: HomeDiscoveryContext): Promise<AdapterPurgePlan> {
    const c = this.canonical(id);
    if (c === null) return { artifacts: [], refused: [], mentions: [], notes: [] };
    try {
      const [paths, rows, refusals, mentions, notes] = await Promise.all([
        this.artifactPaths(c, ctx).then((p) => planArtifactPaths(this.ports.fs, p)),
        this.dbRows(c, ctx),
        this.purgeRefusals(c, ctx),
        this.mentions(c, ctx),
        this.purgeNotes(c, ctx),
      ]);
      // A refusal the row look also reported is listed once.
      const said = new Set(refusals.map((r) => formatArtifact(r, { reason: true })));
      const problems = rows.filter(hasReason).filter((r) => !said.has(formatArtifact(r, { reason: true })));
      const own: Artifact[] = [...rows.filter((r) => !hasReason(r)), ...paths.artifacts];
      if (refusals.length === 0) return { artifacts: own, refused: [...paths.refused, ...problems], mentions, notes };
      // A refused purge removes nothing: every artifact is listed as kept, after the reasons.
      const kept = own.map((a) => ({ ...a, reason: 'kept: the purge of this conversation is refused' }));
      return { artifacts: [], refused: [...refusals, ...problems, ...paths.refused, ...kept], mentions, notes };
    } catch (err) {
      return { artifacts: [], refused: [{ kind: 'dir', path: ctx.home, reason: `${this.name} purge plan failed: ${describeError(err)}` }], mentions: [], notes: [] };
    }
  }

  /** Records why the id's last row delete failed, as residual entries (`[]` clears them); the one store for every adapter. */
  protected noteRowDeleteFailures(id: string, failures: readonly LeftArtifact[]): void {
    if (failures.length > 0) this.#rowDeleteFailures.set(id, [...failures]);
    else this.#rowDeleteFailures.delete(id);
  }

  /** The recorded row-delete failures of the id, while `rows` (the rows still on record) is not empty. */
  protected rowDeleteFailures(id: string, rows: readonly Artifact[]): LeftArtifact[] {
    return rows.length > 0 ? (this.#rowDeleteFailures.get(id) ?? []) : [];
  }

  /** {@inheritDoc AgentAdapter.hasArtifacts} */
  async hasArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    return (await this.residualArtifacts(id, ctx)).length > 0;
  }

  /** `hasArtifacts` from by-id lookups where the store allows; by default {@link BaseAdapter.hasArtifacts} itself (an adapter whose store can tell by id overrides it). */
  async owns(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    return this.hasArtifacts(id, ctx);
  }

  /** {@inheritDoc AgentAdapter.mentions} */
  async mentions(_id: string, _ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    return [];
  }

  /** The root of this agent's store here, for {@link BaseAdapter.survey}; null when no on-disk layout is known. */
  protected async storeRoot(_ctx: HomeDiscoveryContext): Promise<string | null> {
    return null;
  }

  /** Why `discover` may be empty: by default whether {@link BaseAdapter.storeRoot} exists and lists, and how many entries it has. */
  async survey(ctx: HomeDiscoveryContext): Promise<StoreSurvey> {
    try {
      const root = await this.storeRoot(ctx);
      if (root === null) return { agent: this.name, store: 'unknown-layout', root: ctx.home, reason: `no on-disk layout of ${this.name} is known` };
      return await surveyRoot(this.ports.fs, this.name, root);
    } catch (err) {
      return { agent: this.name, store: 'unreadable', root: ctx.home, reason: describeError(err) };
    }
  }

  /** {@inheritDoc AgentAdapter.authOk} */
  async authOk(_ctx: HomeDiscoveryContext): Promise<boolean> {
    return true;
  }

  /** {@inheritDoc AgentAdapter.preflight} */
  async preflight(ctx: HomeDiscoveryContext): Promise<PreflightResult> {
    const ok = await this.authOk(ctx).catch(() => false);
    return { ok, exitCode: ok ? 0 : 1 };
  }

  /** The one candidate that verifies in `discover` mode, is newer than the row's epoch and no other row records; otherwise why not. */
  async captureActiveSessionId(row: SessionRow, ctx: HomeDiscoveryContext): Promise<CaptureResult> {
    const claimed = new Set((ctx.siblingClaimedIds ?? []).map((i) => this.canonical(i) ?? i));
    const { epoch: given, siblingClaimedIds: _claimed, ...base } = ctx;
    const epoch = given ?? row.herdr_session_epoch ?? undefined;
    const all = await this.discover(base);
    const fresh = epoch === undefined ? new Set(all) : new Set(await this.discover({ ...base, epoch }));
    const candidates = await Promise.all(
      all.map(async (id) => ({ id, verified: await this.verifyArtifact(id, base, 'discover'), newer: fresh.has(id), claimed: claimed.has(id) })),
    );
    return decideCapture(candidates);
  }
}
