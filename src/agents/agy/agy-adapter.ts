import { join } from 'node:path';
import { verifyCanonical } from '../common/batch-memo.js';
import type { SessionRow } from '../../registry/session-row.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { asLeft, formatArtifact } from '../../purge/artifact.js';
import { type ArtifactPath, leftArtifacts, pathArtifact, removeArtifacts } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { psHint } from '../common/in-use.js';
import { describeError } from '../../errors.js';
import type { AdapterPurgePlan, CaptureResult, HomeDiscoveryContext, RemainsBelonging, StoreReport, VerifyQuery } from '../types.js';
import { captureAgy } from './agy-capture.js';
import { inspectAgyStores } from './agy-inspect.js';
import { agyMentions } from './agy-mentions.js';
import { type AgyPaths, agyDbPath, agyHeldPaths, agyLockPath, agyPaths } from './agy-paths.js';
import { type AgyPurgePlan, planAgyPurge, sharedAgyPurgePlan, withSharedAgyPlans } from './agy-purge-plan.js';
import { agySummaryRows, deleteAgySummaryRows } from './agy-summaries.js';
import { agyVerifyMany } from './agy-verify-many.js';
import { agyRemainsBelonging, discoverAgy } from './agy-workspace.js';

/**
 * The Antigravity CLI (`agy`, post-discovered): conversations under `<GEMINI_HOME>/antigravity-cli/` (`GEMINI_HOME`
 * defaults to `<home>/.gemini`) — a SQLite database per conversation recording its own workspace, with its sidecars, a
 * `.pb` store, a brain dir, an annotation and a presence lock; subagent conversations below it; the ACP server's copies
 * under `<GEMINI_HOME>/antigravity-acp/`; and shared files (a summaries index, the prompt history, a last-conversation
 * cache that is only a hint).
 * @example
 * ```ts
 * const agy = getAdapter('agy');
 * const ids = await agy.discover({ workspace: '/repo', home: '/home/me' }); // newest first
 * ```
 * @public
 */
export class AgyAdapter extends BaseAdapter {
  /** Always `agy`. */
  readonly name = 'agy' as const;
  /** Post-discovered: agy picks the conversation id; capture finds it on disk. */
  readonly idLifecycle = 'post_discovered' as const;
  /** Discovery, verification and ownership here read files only (no spawn, no write): the home's stat runs alongside. */
  protected override readonly storeReadsOnly = true;
  /** agy exports the conversation id to its tool shells as `ANTIGRAVITY_CONVERSATION_ID`. */
  override readonly sessionEnvVar = 'ANTIGRAVITY_CONVERSATION_ID';

  // The ports' clock: what a conversation's files say is remembered under their lstats only once they have settled by it.
  readonly #now = (): number => this.ports.clock.now();

  /** The CLI arguments that resume a conversation (`agy --conversation <id>`), empty for an implausible id. */
  resumeArgs(id: string): string[] {
    const c = this.canonical(id);
    return c === null ? [] : ['--conversation', c];
  }

  /** Top-level conversations whose own database (or ACP `.meta`) records this workspace, newest first; the cache only adds hints. */
  async discover(ctx: HomeDiscoveryContext): Promise<string[]> {
    return discoverAgy(this.ports.fs, await this.paths(ctx), ctx);
  }

  /**
   * The database opens and its own workspace record (else the cache's hint) does not place it only in other workspaces;
   * `discover` mode also needs it placed here, refuses subagents and never accepts an id another row records.
   */
  async verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
    // One rule set: a single id is a batch of one.
    try {
      return (await agyVerifyMany(this.ports.fs, await this.paths(ctx), [{ id: c, workspace: ctx.workspace }], mode, this.#now))[0] === true;
    } catch {
      return false;
    }
  }

  /** Once neither database of it opens (a purge stopped part-way), the workspace its `.meta` or the cache records (`agyRemainsBelonging`). */
  async remainsBelonging(id: string, ctx: HomeDiscoveryContext): Promise<RemainsBelonging | null> {
    const c = this.canonical(id);
    return c === null ? null : agyRemainsBelonging(this.ports.fs, await this.paths(ctx), c, ctx.workspace);
  }

  /** `verifyArtifact` in `verify` mode for many ids at once: each conversation read once, the cache at most once, each workspace resolved once. */
  override async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    try {
      return await verifyCanonical(queries, ctx.workspace, (id) => this.canonical(id), async (batch) => agyVerifyMany(this.ports.fs, await this.paths(ctx), batch, 'verify', this.#now));
    } catch {
      // A context whose paths cannot be told verifies nothing.
      return queries.map(() => false);
    }
  }

  /** The one cached candidate whose presence lock or database the row's pane process (or a descendant) holds open; anything unprovable is not captured. */
  override captureActiveSessionId(row: SessionRow, ctx: HomeDiscoveryContext): Promise<CaptureResult> {
    return captureAgy(
      {
        proc: this.ports.proc,
        canonical: (i) => this.canonical(i),
        discover: (c) => this.discover(c),
        verify: (i, c) => this.verifyArtifact(i, c, 'discover'),
        heldPaths: (i, c) => this.heldPaths(i, c),
      },
      row,
      ctx,
    );
  }

  /** Every own path of the id and its subagents, then the presence locks — in removal order. */
  protected async artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> {
    const plan = await sharedAgyPurgePlan(this.ports.fs, await this.paths(ctx), id);
    return [...plan.paths, ...plan.locks.map((l) => l.lock)];
  }

  /** The database and sidecars (the CLI's and the ACP server's) and the presence lock. */
  protected override async heldPaths(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    // The brain dir too: a shell cd'd into brain/<id>/ (or a file open below it) holds the conversation.
    const p = await this.paths(ctx);
    return [...agyHeldPaths(p, id), join(p.brain, id)];
  }

  /** A `ps` line for the id and an `lsof` line for its presence lock and database. */
  override inUseHints(id: string, ctx: HomeDiscoveryContext): string[] {
    const c = this.canonical(id);
    if (c === null) return [];
    const p = agyPaths(ctx.home, ctx.env ?? {});
    return [psHint(c), `lsof ${agyLockPath(p, c)} ${agyDbPath(p, c)}`];
  }

  /**
   * Removes the conversation and its subagents (any depth; one another live process uses stays, with its subtree): the
   * shared index's rows naming them, then each one's files (its parent-side record, brain, annotation, `.pb` files, ACP
   * copy, sidecars, database), then the presence locks — each only when a fresh in-use check finds nobody, the id's
   * last. Removes nothing when an entry naming any of them is not understood (see residual). Never throws.
   */
  override async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const p = await this.paths(ctx);
      const plan = await planAgyPurge(this.ports.fs, p, c, (child) => this.busy(child, ctx));
      if (plan.unknown.length > 0) return [];
      this.noteRowDeleteFailures(c, []);
      const rows = await deleteAgySummaryRows(this.ports.fs, p.summariesDb, plan.ids);
      if (rows.failure !== null) this.noteRowDeleteFailures(c, [rows.failure]);
      const done = await removeArtifacts(this.ports.fs, plan.paths);
      const purged: Artifact[] = [...rows.rows, ...done.purged];
      for (const { id: owner, lock } of plan.locks) {
        if (!(await this.busy(owner, ctx))) purged.push(...(await removeArtifacts(this.ports.fs, [lock])).purged);
      }
      return purged;
    } catch {
      return [];
    }
  }

  /** What a purge would remove (see BaseAdapter.planPurge), with the conversation's family planned once for every part of the preview. */
  override planPurge(id: string, ctx: HomeDiscoveryContext): Promise<AdapterPurgePlan> {
    return withSharedAgyPlans(() => super.planPurge(id, ctx));
  }

  /**
   * What is still there of the conversation and its subagents (a path behind a linked dir included), the shared index's
   * rows naming them, each entry not understood with the refusal, and why the index could not be read or written.
   */
  override async residualArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const r = await this.residualParts(id, ctx);
    return [...r.own, ...r.doubts];
  }

  /** True when anything of the conversation (or its subagents) is still there; a shared index it cannot read is no evidence. */
  override async hasArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    return (await this.residualParts(id, ctx)).own.length > 0;
  }

  /** The shared index's rows naming the id and its subagents (a failed look carries its reason). */
  protected override async dbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const p = await this.paths(ctx);
    const rows = await agySummaryRows(this.ports.fs, p.summariesDb, (await sharedAgyPurgePlan(this.ports.fs, p, id)).ids);
    return [...rows.rows, ...(rows.failure === null ? [] : [rows.failure])];
  }

  /** Each entry naming the id (or a subagent of it) that is not understood: the purge then removes nothing. */
  protected override async purgeRefusals(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    return this.refusals(await sharedAgyPurgePlan(this.ports.fs, await this.paths(ctx), id));
  }

  /** The shared index keeps older page images in its `-wal` until agy checkpoints it. */
  protected override async purgeNotes(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const rows = await this.dbRows(id, ctx);
    return rows.some((r) => r.kind === 'rows')
      ? ['conversation_summaries.db is shared by every agy conversation: its rows are deleted with secure_delete, but older page images may stay in its -wal until agy checkpoints it']
      : [];
  }

  /** The agy root `<GEMINI_HOME>/antigravity-cli`. */
  protected override async storeRoot(ctx: HomeDiscoveryContext): Promise<string> {
    return (await this.paths(ctx)).root;
  }

  /** The shared prompt history, the last-conversation cache and a fork's reference when they still name the id (never rewritten by a purge). */
  override async mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      return await agyMentions(this.ports.fs, await this.paths(ctx), c);
    } catch {
      return [];
    }
  }

  // What is left: `own` (paths, rows, entries not understood) and `doubts` (the shared index could not be read or written).
  private async residualParts(id: string, ctx: HomeDiscoveryContext): Promise<{ own: LeftArtifact[]; doubts: LeftArtifact[] }> {
    const c = this.canonical(id);
    if (c === null) return { own: [], doubts: [] };
    try {
      const p = await this.paths(ctx);
      const plan = await planAgyPurge(this.ports.fs, p, c);
      const files = await leftArtifacts(this.ports.fs, [...plan.paths, ...plan.locks.map((l) => l.lock)]);
      const rows = await agySummaryRows(this.ports.fs, p.summariesDb, plan.ids);
      const own = [...files, ...rows.rows.map(asLeft), ...(await this.refusals(plan))];
      const failures = rows.failure === null ? this.rowDeleteFailures(c, rows.rows) : [rows.failure, ...this.rowDeleteFailures(c, [rows.failure])];
      // A read failure the last delete also met is said once.
      const doubts = failures.filter((f, n) => failures.findIndex((g) => formatArtifact(g, { reason: true }) === formatArtifact(f, { reason: true })) === n);
      return { own, doubts };
    } catch {
      return { own: [], doubts: [] };
    }
  }

  // The entries of a plan that are not understood, each of its lstat kind with the reason.
  private refusals(plan: AgyPurgePlan): Promise<LeftArtifact[]> {
    return Promise.all(plan.unknown.map(async (u) => ({ ...((await pathArtifact(this.ports.fs, u.path)) ?? { kind: 'file' as const, path: u.path }), reason: u.reason })));
  }

  // The agy roots of this context (GEMINI_HOME from the agent's environment, see agentEnv).
  /** A read-only look at the agy CLI and ACP roots (never runs the CLI): conversations, the summaries index, problems. Never rejects. */
  async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
    try {
      return await inspectAgyStores(this.ports.fs, await this.paths(ctx));
    } catch (err) {
      return { agent: 'agy', presence: 'present', root: null, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`] };
    }
  }

  private async paths(ctx: HomeDiscoveryContext): Promise<AgyPaths> {
    return agyPaths(ctx.home, await this.env(ctx));
  }

  // A holder that appeared (or stayed) since the caller's gate keeps what it uses; a failed check too.
  private async busy(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    try {
      return (await this.inUseHolders(id, ctx)).length > 0;
    } catch {
      return true;
    }
  }
}
