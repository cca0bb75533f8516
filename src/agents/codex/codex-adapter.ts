import { join } from 'node:path';
import type { HomeDiscoveryContext, StoreReport } from '../types.js';
import { inspectCodexHome } from './codex-inspect.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { type ArtifactPath, leftArtifacts, removeArtifacts } from '../common/artifacts.js';
import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import { psHint, shellQuote } from '../common/in-use.js';
import { discoverThreads } from './codex-discover.js';
import { codexOwns } from './codex-owns.js';
import { codexHome, type CodexHome } from './codex-home.js';
import { surveyCodex, surveyPaths, surveyTrusted, type CodexSurvey } from './codex-survey.js';
import { codexDescendants } from './codex-subagents.js';
import { rowsNaming } from './rows-naming.js';
import { verifyThread } from './codex-verify.js';
import { codexVerifyMany } from './codex-verify-many.js';
import { purgeDbRows } from './db-purge.js';
import { workspaceCwds } from './workspace-cwds.js';
import { surveyCodexStore } from './codex-store-survey.js';
import type { RemainsBelonging, StoreSurvey, VerifyQuery } from '../types.js';
import { codexRemainsBelonging } from './codex-remains.js';
import { sharedMentions } from './shared-mentions.js';
import { describeError } from '../../errors.js';
import { provingLook } from '../../validation/home-proof.js';
import { lookDbDirs } from './state-cache.js';
import { deadCopiesArtifact, deadCopyArtifacts, wipeDeadCopies } from '../../sqlite/finish-dead-copies.js';

// A sub-agent thread's rows say whose they are (`[child <id>]`), as OpenCode's child sessions do.
function asChild<T extends Artifact>(rows: readonly T[], child: string, parent: string): T[] {
  return child === parent ? [...rows] : rows.map((r) => (r.kind === 'rows' ? { ...r, child } : r));
}

function message(err: unknown): string {
  return describeError(err);
}

/**
 * The Codex CLI (post-discovered UUID v7 thread ids): rollouts `sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl` and
 * `archived_sessions/`, the `threads` table of `state_<N>.sqlite` and every other Codex database's thread columns,
 * `shell_snapshots/<id>.*` (they hold the environment's secrets) and `thread-writer-locks/<id>.lock`.
 * On a state database of an unknown layout, discovery falls back to the rollouts and a purge removes nothing, naming the
 * database in the residual.
 * @example
 * ```ts
 * const codex = getAdapter('codex');
 * const [newest] = await codex.discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export class CodexAdapter extends BaseAdapter {
  /** Always `codex`. */
  readonly name = 'codex' as const;
  /** Post-discovered: Codex picks the thread id; capture finds it on disk. */
  readonly idLifecycle = 'post_discovered' as const;
  /** Discovery, verification and ownership here read files only (no spawn): the home's stat runs alongside. */
  protected override readonly storeReadsOnly = true;
  /** Discovery and verification look at the store's directory (inside the home by default), which proves the home a directory. */
  protected override readonly provesHome = true;
  // Codex 0.171 exports both CODEX_THREAD_ID and CODEX_SESSION_ID (= the id) to its tool shells; the in-use check reads both.
  /** `CODEX_THREAD_ID`, which Codex exports to its tool shells (`CODEX_SESSION_ID` too; the in-use check reads both). */
  override readonly sessionEnvVar = 'CODEX_THREAD_ID';
  // What the last purge of a canonical id could not guarantee (a busy WAL still holding the deleted text).
  readonly #notes = new Map<string, string[]>();
  // The sub-agent threads a purge found for a canonical id: once their links are gone, the residual and the mentions
  // still look for them.
  readonly #purgedKids = new Map<string, string[]>();
  // The ports' clock: discover and verify remember the home's listing and schema facts only once the files have settled by it.
  readonly #now = (): number => this.ports.clock.now();

  async #home(ctx: HomeDiscoveryContext): Promise<CodexHome> {
    return codexHome(await this.env(ctx), ctx.home);
  }

  // The home of a store read (discover, verify): its database directories looked at now — the look the read's listing
  // check takes anyway — through the home proof, so one found inside the home stands for the argument check's stat.
  async #storeHome(ctx: HomeDiscoveryContext): Promise<CodexHome> {
    const home = await this.#home(ctx);
    lookDbDirs(this.ports.fs, home, provingLook(this.ports.fs, ctx));
    return home;
  }

  async #survey(id: string, ctx: HomeDiscoveryContext): Promise<CodexSurvey> {
    return surveyCodex(this.ports.fs, await this.#home(ctx), id);
  }

  // The sub-agent threads the id spawned (any depth), children first: they are purged, checked and reported with it.
  async #descendants(id: string, ctx: HomeDiscoveryContext, s?: CodexSurvey): Promise<string[]> {
    const survey = s ?? (await this.#survey(id, ctx));
    const found = await codexDescendants(this.ports.fs, survey.home, id, surveyTrusted(survey));
    return [...new Set([...found, ...(this.#purgedKids.get(id) ?? [])])];
  }

  /** Top-level thread ids of this workspace's `cwd` (archived ones included, sub-agent threads never) from the state databases (each proven by its rollout, found by id under the home when the recorded path is stale), scanning rollouts only when no database lists them all; newest first, active at or after `ctx.epoch`; none on a failure. */
  async discover(ctx: HomeDiscoveryContext): Promise<string[]> {
    try {
      const since = ctx.epoch !== undefined && Number.isFinite(ctx.epoch) ? ctx.epoch * 1000 : undefined;
      // The workspace's realpath resolves while the home is listed (a rejection is awaited, hence caught, below).
      const cwds = workspaceCwds(this.ports.fs, ctx.workspace);
      cwds.catch(() => undefined);
      return (await discoverThreads(this.ports.fs, await this.#storeHome(ctx), cwds, since, this.#now)).map((d) => d.id);
    } catch {
      return [];
    }
  }

  /** Does the id have a conversation of this workspace: its `threads` row's cwd and rollout, or else a rollout naming id and workspace (`discover` mode is stricter and excludes ids other rows record); false on any failure. */
  async verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
    try {
      const cwds = workspaceCwds(this.ports.fs, ctx.workspace);
      cwds.catch(() => undefined);
      return await verifyThread(this.ports.fs, await this.#storeHome(ctx), cwds, c, mode === 'discover', this.#now);
    } catch {
      return false;
    }
  }

  /** `verifyArtifact` in `verify` mode for many ids at once: the state DBs listed, opened and probed once for the batch, one lookup by id each. */
  override async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    return codexVerifyMany(this.ports.fs, () => this.#storeHome(ctx), queries, ctx.workspace, (id) => this.canonical(id), this.#now);
  }

  /** Once its rollout is gone (a purge stopped part-way), the workspace its `threads` rows record (`codexRemainsBelonging`); null while a rollout is there. */
  async remainsBelonging(id: string, ctx: HomeDiscoveryContext): Promise<RemainsBelonging | null> {
    const c = this.canonical(id);
    return c === null ? null : codexRemainsBelonging(this.ports.fs, await this.#home(ctx), c, ctx.workspace);
  }

  /** Has the home any artifact of the id: by-id lookups (rows, lock, snapshots, the rollout in its own date dirs), looking everywhere only when they cannot tell. */
  override async owns(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    const quick = await codexOwns(this.ports.fs, await this.#home(ctx), c).catch(() => null);
    // No row and no file: old copies of deleted rows (a purge interrupted after its delete) are still the id's own.
    if (quick === false) return (await this.#deadCopies(await this.#survey(c, ctx), c)).length > 0;
    return quick ?? this.hasArtifacts(c, ctx);
  }

  /** Rollouts, shell snapshots and the writer lock of the thread, then of each sub-agent thread it spawned. */
  protected async artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> {
    const s = await this.#survey(id, ctx);
    const kids = await Promise.all((await this.#descendants(id, ctx, s)).map((k) => this.#survey(k, ctx)));
    return [s, ...kids].flatMap(surveyPaths);
  }

  // The writer lock (flocked by a live Codex) and the rollout (kept open) speak for this thread alone; the databases are
  // shared by every thread, so a holder of them proves nothing about this one.
  /** The rollouts and the writer locks of the thread and of its sub-agent threads (the shared databases prove nothing about one thread). */
  protected override async heldPaths(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const s = await this.#survey(id, ctx);
    const kids = await Promise.all((await this.#descendants(id, ctx, s)).map((k) => this.#survey(k, ctx)));
    return [s, ...kids].flatMap((x) => [...x.artifacts.rollouts.map((r) => r.path), x.artifacts.lock.path]);
  }

  /**
   * Rows of every Codex database whose thread columns name the id or a sub-agent thread it spawned (kind `rows`); when
   * none does, the old copies of the id's deleted rows still in a database's bytes (a purge interrupted after its delete).
   */
  protected override async dbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const s = await this.#survey(id, ctx);
    const out: Artifact[] = [];
    for (const k of [id, ...(await this.#descendants(id, ctx, s))]) out.push(...asChild((await rowsNaming(this.ports.fs, s, k, (i) => i.columns.owned, true)).rows, k, id));
    return out.length > 0 ? out : this.#deadCopies(s, id);
  }

  // The old copies of the id's deleted rows in each readable database that has thread columns (asked when no row names it).
  async #deadCopies(s: CodexSurvey, id: string): Promise<Artifact[]> {
    const dbs = s.dbs.filter((i) => i.ok && (i.columns.owned.length > 0 || i.columns.rolloutPaths.length > 0));
    return (await Promise.all(dbs.map((i) => deadCopyArtifacts(this.ports.fs, i.db.path, [id])))).flat();
  }

  /** Deletes those rows, opening for writing only a database that holds some; a database that refused or failed is kept for the residual. */
  protected override async purgeDbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    return this.#purgeRows(await this.#survey(id, ctx), id, false);
  }

  /** A state database of an unknown layout (or unreadable): the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    return (await this.#survey(id, ctx)).refusals;
  }

  // Deletes the thread's rows database by database; why a database kept its rows is remembered for the residual.
  async #purgeRows(s: CodexSurvey, id: string, keepThreads: boolean, notes: string[] = []): Promise<Artifact[]> {
    const deleted: Artifact[] = [];
    const failures: LeftArtifact[] = [];
    // The state DBs (their `threads` rows record the cwd) after every other database.
    for (const i of [...s.dbs].sort((a, b) => Number(a.db.state) - Number(b.db.state))) {
      if (!i.ok || (i.columns.owned.length === 0 && i.columns.rolloutPaths.length === 0)) continue;
      // A read-only look first: a database holding nothing of the thread is never opened for writing (but for the old
      // copies of deleted rows a writer without secure_delete left in its bytes, found by a search of them first).
      const { rows } = await rowsNaming(this.ports.fs, { dbs: [i] }, id, (x) => x.columns.owned, true);
      let done: Awaited<ReturnType<typeof purgeDbRows>> | null = null;
      if (rows.length > 0) {
        done = await purgeDbRows(this.ports.fs, i.db, id, keepThreads);
        deleted.push(...done.deleted);
        notes.push(...done.notes);
        if (done.failure !== null) failures.push(done.failure);
      }
      if (done?.failure != null || (done?.notes.length ?? 0) > 0) continue;
      const wiped = await wipeDeadCopies(this.ports.fs, this.ports.proc, i.db.path, [id], 'Codex writes without secure_delete');
      notes.push(...wiped.notes);
      // A rerun after a purge interrupted past its delete: the old copies were what was left, and they are gone now.
      if (done === null && wiped.before > 0 && wiped.after === 0) deleted.push(deadCopiesArtifact(i.db.path, wiped.before));
    }
    this.noteRowDeleteFailures(id, failures);
    return deleted;
  }

  // One thread's files and rows (its sub-agents are the caller's business).
  async #purgeOne(s: CodexSurvey, id: string, notes: string[]): Promise<Artifact[]> {
    const fs = this.ports.fs;
    // Every file before the rows, the `threads` row (it records the cwd) last: after a failure or a kill at any point
    // what stays is still attributable to its workspace (a rollout that could not go keeps its threads row, and both
    // are residual), so the same scoped command finishes it.
    const files = await removeArtifacts(fs, surveyPaths(s));
    const stray = s.artifacts.rollouts.some((r) => files.residual.some((a) => a.kind !== 'rows' && a.path === r.path));
    const rows = await this.#purgeRows(s, id, stray, notes);
    this.noteRemovalLeft(id, files.residual);
    return [...rows, ...files.purged];
  }

  /** What the last purge of the id could not guarantee (e.g. a `-wal` another connection kept busy still holds the deleted text). */
  protected override async purgeNotes(id: string, _ctx: HomeDiscoveryContext): Promise<string[]> {
    const c = this.canonical(id);
    return c === null ? [] : [...(this.#notes.get(c) ?? [])];
  }

  /**
   * Removes the thread's sub-agent threads first (deepest first, each like the thread itself), then its rollouts, shell
   * snapshots and writer lock, then its database rows, the state DBs' last (the `threads` row stays if a rollout could
   * not go); nothing on an unknown layout. Never throws.
   */
  override async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    this.noteRowDeleteFailures(c, []);
    this.#notes.delete(c);
    const notes: string[] = [];
    try {
      const s = await this.#survey(c, ctx);
      if (s.refusals.length > 0) return [];
      // Collected before anything goes: the spawn edges that link the children are rows of the parent.
      const kids = await this.#descendants(c, ctx, s);
      if (kids.length > 0) {
        if (this.#purgedKids.size >= 256) this.#purgedKids.delete(this.#purgedKids.keys().next().value as string);
        this.#purgedKids.set(c, kids);
      }
      const purged: Artifact[] = [];
      for (const k of [...kids].reverse()) purged.push(...asChild(await this.#purgeOne(await this.#survey(k, ctx), k, notes), k, c));
      purged.push(...(await this.#purgeOne(s, c, notes)));
      return purged;
    } catch {
      return [];
    } finally {
      if (notes.length > 0) this.#notes.set(c, [...new Set(notes)]);
    }
  }

  /**
   * Files and rows of the thread still there, with refusals, unreadable dirs and the last purge's failed row deletes
   * (`<db> (<why>: not purged)`) explaining them; a failed check is one entry.
   */
  override async residualArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const s = await this.#survey(c, ctx);
      const own: LeftArtifact[] = [];
      const notes = new Map<string, LeftArtifact>();
      const failed: LeftArtifact[] = [];
      // The thread and every sub-agent thread it spawned: a child left behind is the parent's residual.
      for (const k of [c, ...(await this.#descendants(c, ctx, s))]) {
        const ks = k === c ? s : await this.#survey(k, ctx);
        const files = (await leftArtifacts(this.ports.fs, surveyPaths(ks))).map((f) => this.residualEntry(k, f));
        const found = await rowsNaming(this.ports.fs, ks, k, (i) => i.columns.owned, true);
        own.push(...files, ...asChild(found.rows.map(asLeft), k, c));
        for (const n of found.notes) notes.set(`${n.kind === 'rows' ? n.db : n.path}\0${n.reason}`, n);
        failed.push(...this.rowDeleteFailures(k, found.rows));
      }
      // No row and no file: the old copies of the id's deleted rows still in a database's bytes are what stays.
      if (own.length === 0) own.push(...(await this.#deadCopies(s, c)).map(asLeft));
      const unreadable = s.artifacts.unreadable.map((d): LeftArtifact => ({ kind: 'dir', path: d, reason: 'unreadable' }));
      // Refusals and unreadable places explain what stays; alone they are no evidence of this conversation.
      return own.length === 0 ? [] : [...own, ...failed, ...s.refusals, ...unreadable, ...notes.values()];
    } catch (err) {
      return [{ kind: 'dir', path: ctx.home, reason: `residual check failed: ${message(err)}` }];
    }
  }

  /** Rows of shared tables and shared files (`history.jsonl`: prompts by `session_id`; `session_index.jsonl`: titles by `id`; the TUI log) that mention the id or a sub-agent thread it spawned; never removed or rewritten. */
  override async mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const s = await this.#survey(c, ctx);
      const out: Artifact[] = [];
      for (const k of [c, ...(await this.#descendants(c, ctx, s))]) {
        const { rows } = await rowsNaming(this.ports.fs, s, k, (i) => i.columns.mentions);
        for (const a of [...rows, ...(await sharedMentions(this.ports.fs, s.home, k))]) {
          // A shared file naming the parent and a child is one mention.
          if (a.kind === 'rows' || !out.some((o) => o.kind !== 'rows' && o.path === a.path)) out.push(a);
        }
      }
      return out;
    } catch {
      return [];
    }
  }

  /** A read-only look at the Codex home: state databases' versions and layouts, thread and rollout counts, problems. Never rejects. */
  async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
    const home = await this.#home(ctx);
    return inspectCodexHome(this.ports.fs, home).catch((err: unknown) => ({ agent: 'codex' as const, presence: 'present' as const, root: home.home, layout: null, known: false, counts: {}, problems: [`inspection failed: ${message(err)}`] }));
  }

  /** The home's rollouts, state databases (layout, rows) and rows recording a rollout outside the home (a moved `CODEX_HOME`). */
  override async survey(ctx: HomeDiscoveryContext): Promise<StoreSurvey> {
    try {
      return await surveyCodexStore(this.ports.fs, await this.#home(ctx));
    } catch (err) {
      return { agent: 'codex', store: 'unreadable', root: ctx.home, reason: message(err) };
    }
  }

  /** A `ps` line for the id and an `lsof` line for its writer lock. */
  override inUseHints(id: string, ctx: HomeDiscoveryContext): string[] {
    const c = this.canonical(id);
    // An implausible id gives no hint at all: it is never pasted into a command a person runs.
    if (c === null) return [];
    const own = this.ports.proc.env();
    const env = ctx.env ?? (own['HOME'] === ctx.home ? own : {});
    return [psHint(c), `lsof ${shellQuote(join(codexHome(env, ctx.home).locks, `${c}.lock`))}`];
  }
}
