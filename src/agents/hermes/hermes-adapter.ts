import type { ProcessInfo } from '../../ports/process.js';
import { type Artifact, asLeft, formatArtifact, type LeftArtifact } from '../../purge/artifact.js';
import { type ArtifactPath, existingArtifacts, leftArtifacts, removeArtifacts } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { psHint } from '../common/in-use.js';
import { describeError } from '../../errors.js';
import type { HomeDiscoveryContext, InUseHolder, StoreReport, VerifyQuery } from '../types.js';
import { type HermesBatchQuery, hermesVerifyBatch } from './hermes-verify.js';
import { hermesDiscover } from './hermes-discover.js';
import { type HermesConversation, HermesGraph } from './hermes-conversation.js';
import { hermesMentions, hermesSessionFiles } from './hermes-files.js';
import { hermesChainHolders } from './hermes-in-use.js';
import { inspectHermesStores } from './hermes-inspect.js';
import { type HermesStore, hermesPaths, hermesStores } from './hermes-paths.js';
import { purgeHermesRows } from './hermes-purge-rows.js';
import { type HermesLocated, locatedFiles, locatedNotes, locatedRefusals, locatedRows, locateHermes, plausibleHermesIds } from './hermes-located.js';
import { readHermesSessions } from './hermes-sessions.js';
import { provingDirLook } from '../../validation/home-proof.js';
import { deadCopiesArtifact, deadCopyArtifacts, wipeDeadCopies } from '../../sqlite/finish-dead-copies.js';

const SIDECARS = ['-wal', '-shm', '-journal'] as const;

/**
 * Hermes (post-discovered). Every session is a row of one shared SQLite `state.db` (`HERMES_HOME`, else
 * `<home>/.hermes`; named profiles `<home>/.hermes/profiles/<name>/state.db` are searched too), the real schema 22 with
 * its FTS5 tables and triggers, or a later one that only adds tables/columns; a table naming a session by a column this
 * adapter does not know makes the layout unknown (read, never purged). A compression chain is one conversation, offered
 * under its tip (the id Hermes resumes now); delegate children are never offered. A purge deletes the whole conversation
 * (chain, branch and delegate children) in one transaction with foreign keys and `secure_delete` on, and its per-session
 * files under `sessions/`; never the database file or its sidecars.
 * @example
 * ```ts
 * const hermes = getAdapter('hermes');
 * const ids = await hermes.discover({ workspace: '/repo', home: '/home/me', epoch: 1767225600 }); // tips, newest first
 * ```
 * @public
 */
export class HermesAdapter extends BaseAdapter {
  /** Always `hermes`. */
  readonly name = 'hermes' as const;
  /** Post-discovered: Hermes picks the session id; capture finds it in `state.db`. */
  readonly idLifecycle = 'post_discovered' as const;
  /** Discovery, verification and ownership here read files only (no spawn): the home's stat runs alongside. */
  protected override readonly storeReadsOnly = true;
  /** Discovery and verification look at each store's directory (inside the home by default), which proves the home a directory. */
  protected override readonly provesHome = true;
  /** Hermes exports the session id to its tool shells as `HERMES_SESSION_ID` (the tip's, after compression). */
  override readonly sessionEnvVar = 'HERMES_SESSION_ID';

  // The ports' clock: a store's columns are remembered only once its file and sidecars have settled by it.
  readonly #now = (): number => this.ports.clock.now();
  // The ids (as stored) and notes of each canonical id's last purge: the residual still knows the chain once its rows are gone.
  readonly #purged = new Map<string, { ids: string[]; notes: string[] }>();

  /** Conversations of this workspace (by its root's or tip's `cwd` or `git_repo_root`; an ACP session, its cwd only in `model_config`, is not offered, as Hermes' own listing does not show it) under their tip ids, newest tip first. */
  async discover(ctx: HomeDiscoveryContext): Promise<string[]> {
    return hermesDiscover(this.ports.fs, this.stores(ctx), ctx.workspace, { epoch: ctx.epoch, now: this.#now, canonical: (i) => this.canonical(i), dirLook: provingDirLook(this.ports.fs, ctx) });
  }

  /** Any id of a conversation whose root or tip is of this workspace; `discover` mode never accepts one whose chain another row records. */
  async verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      const refuses = mode === 'discover' ? (conv: HermesConversation) => conv.chain.some((m) => this.claimedBySibling(this.canonical(m) ?? m, ctx)) : undefined;
      const [answer] = await hermesVerifyBatch(this.ports.fs, ctx.home, await this.env(ctx), [{ id: c, workspace: ctx.workspace }], { now: this.#now, refuses, dirLook: provingDirLook(this.ports.fs, ctx) });
      return answer === true;
    } catch {
      return false;
    }
  }

  /** `verifyArtifact` in `verify` mode for many ids at once: each `state.db` opened and probed once for the batch, by-id reads on it (each distinct id once), the whole table read at most once. */
  override async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    const out = queries.map(() => false);
    try {
      const batch: HermesBatchQuery[] = [];
      const at: number[] = [];
      queries.forEach((qy, i) => {
        const c = this.canonical(qy.id);
        if (c === null) return;
        batch.push({ id: c, workspace: qy.workspace ?? ctx.workspace });
        at.push(i);
      });
      if (batch.length === 0) return out;
      const answers = await hermesVerifyBatch(this.ports.fs, ctx.home, await this.env(ctx), batch, { now: this.#now, dirLook: provingDirLook(this.ports.fs, ctx) });
      at.forEach((i, k) => (out[i] = answers[k] === true));
      return out;
    } catch {
      return out;
    }
  }

  /**
   * The id the conversation of `id` continues under now (the tip of its compression chain, canonical), or null when no
   * store has the id. Capture and AutoPin follow a pinned root to it. Never throws.
   */
  async currentId(id: string, ctx: HomeDiscoveryContext): Promise<string | null> {
    const c = this.canonical(id);
    if (c === null) return null;
    try {
      for (const store of await this.stores(ctx)) {
        const conv = new HermesGraph(await readHermesSessions(this.ports.fs, store.db)).conversation(c);
        if (conv !== undefined) return this.canonical(conv.tip.id);
      }
      return null;
    } catch {
      return null;
    }
  }

  /** The profile whose store holds the id (`default` for `HERMES_HOME`, else `<home>/.hermes`), or null when none does. Never throws. */
  async profileOf(id: string, ctx: HomeDiscoveryContext): Promise<string | null> {
    const c = this.canonical(id);
    if (c === null) return null;
    try {
      for (const store of await this.stores(ctx)) {
        if (new HermesGraph(await readHermesSessions(this.ports.fs, store.db)).find(c) !== undefined) return store.profile;
      }
      return null;
    } catch {
      return null;
    }
  }

  /** The per-session files of every id of the conversation, in every store searched. */
  protected async artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> {
    return locatedFiles(this.ports.fs, await this.locate(id, ctx));
  }

  // Every Hermes process keeps state.db open: a holder of it is no evidence for one session (as with OpenCode's service).
  // Only while the conversation's tip was never closed (`ended_at` null: live, or crashed) does a holder count — a
  // refusal can be retried, deleted rows cannot come back.
  /** `state.db` and its sidecars of a store whose copy of the conversation is still open (its tip has no `ended_at`); else none. */
  protected override async heldPaths(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const out: string[] = [];
    for (const store of await this.stores(ctx)) {
      const conv = new HermesGraph(await readHermesSessions(this.ports.fs, store.db)).conversation(id);
      if (conv?.tip.open === true) out.push(store.db, ...SIDECARS.map((s) => store.db + s));
    }
    return out;
  }

  /** Command lines naming another id of the chain or a unique `--resume` prefix of one, and the caller's `HERMES_SESSION_ID` naming any. */
  protected override async extraInUse(id: string, ctx: HomeDiscoveryContext, snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> {
    const found: InUseHolder[] = [];
    for (const store of await this.stores(ctx)) {
      const graph = new HermesGraph(await readHermesSessions(this.ports.fs, store.db));
      const conv = graph.conversation(id);
      const chain = conv?.chain ?? [id];
      found.push(...hermesChainHolders(this.ports.proc, snapshot, { id, chain, allIds: graph.rows.map((r) => r.id) }));
    }
    return found;
  }

  /** A `ps` line for the id (Hermes' `--resume` also takes a unique prefix or a title). */
  override inUseHints(id: string, ctx: HomeDiscoveryContext): string[] {
    const c = this.canonical(id);
    if (c === null) return [];
    const { db } = hermesPaths(ctx.home, ctx.env ?? {});
    return [psHint(c), `ps -axww | grep -e 'hermes.*--resume' -e 'HERMES_SESSION_ID'  # ${db} is held by every Hermes process`];
  }

  /**
   * Deletes the whole conversation's rows from each store's `state.db` in one transaction, then its per-session files;
   * returns what was removed. A refused purge (an unknown layout naming it, a database that must not be written)
   * removes nothing and the residual says why. Never throws.
   */
  override async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const located = await this.locate(c, ctx);
      const refusals = await locatedRefusals(this.ports.fs, located);
      this.noteRowDeleteFailures(c, refusals);
      if (refusals.length > 0) return [];
      const remembered = this.#purged.get(c)?.ids ?? [];
      const out: Artifact[] = [];
      const failures: LeftArtifact[] = [];
      const notes: string[] = [];
      const ids = new Set(remembered);
      let paths: ArtifactPath[] = await locatedFiles(this.ports.fs, located);
      for (const l of located) {
        if (l.rows.unreadable !== undefined) continue;
        if (l.rows.rows.length === 0) {
          // A rerun after a purge interrupted past its delete: the old copies of the deleted rows are what is left.
          const wiped = await this.#wipe(l.store.db, [c, ...remembered]);
          notes.push(...wiped.notes);
          if (wiped.before > 0 && wiped.after === 0) out.push(deadCopiesArtifact(l.store.db, wiped.before));
          continue;
        }
        const done = await purgeHermesRows(this.ports.fs, l.store.root, l.store.db, c, remembered);
        if (done.refused !== undefined) failures.push({ kind: 'file', path: l.store.db, reason: done.refused });
        for (const i of [...l.rows.ids, ...done.ids]) ids.add(i);
        out.push(...done.deleted);
        // Hermes writes without secure_delete: its own updates left old copies of the conversation's rows in the file.
        const wiped = done.deleted.length > 0 ? await this.#wipe(l.store.db, [c, ...done.ids]) : null;
        notes.push(...locatedNotes(c, l, done.walKept && done.deleted.length > 0 && (wiped === null || wiped.notes.length > 0)), ...(wiped?.notes ?? []));
        paths = [...paths, ...(await hermesSessionFiles(this.ports.fs, l.store.root, plausibleHermesIds(done.ids)))];
      }
      this.noteRowDeleteFailures(c, failures);
      this.#purged.set(c, { ids: [...ids], notes });
      const unique = [...new Map(paths.map((p) => [p.path, p])).values()];
      out.push(...(await removeArtifacts(this.ports.fs, unique)).purged);
      return out;
    } catch {
      return [];
    }
  }

  /**
   * What a person should know of a purge of the id that is no artifact: after a purge, its notes (the profile it was
   * found in, its compression chain, the WAL still holding the deleted text); before one, the same as far as they can be
   * told now.
   */
  override async purgeNotes(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const done = this.#purged.get(c);
    if (done !== undefined) return [...done.notes];
    try {
      const out: string[] = [];
      for (const l of await this.locate(c, ctx)) {
        if (l.rows.rows.length === 0) continue;
        const wal = (await this.ports.fs.lstat(`${l.store.db}-wal`).then(() => true, () => false)) && (await this.ports.fs.lstat(`${l.store.db}-shm`).then(() => true, () => false));
        out.push(...locatedNotes(c, l, wal));
      }
      return out;
    } catch {
      return [];
    }
  }

  /** Per-session files still on disk, rows still naming any id of the conversation, a refusal or why a database could not be read. Never throws. */
  override async residualArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const located = await this.locate(c, ctx);
      const files = await leftArtifacts(this.ports.fs, await locatedFiles(this.ports.fs, located));
      const found = locatedRows(located);
      const rows = found.length > 0 ? found : await this.#deadCopies(c, located);
      const refusals = await locatedRefusals(this.ports.fs, located);
      const said = new Set(refusals.map((r) => formatArtifact(r, { reason: true })));
      return [...files, ...rows.map(asLeft), ...refusals, ...this.rowDeleteFailures(c, rows).filter((f) => !said.has(formatArtifact(f, { reason: true })))];
    } catch {
      return [];
    }
  }

  /**
   * The rows naming the conversation in every store (an unreadable database is one entry with its reason); when none
   * does, the old copies of its deleted rows still in a `state.db`'s bytes (a purge interrupted after its delete).
   */
  protected override async dbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const located = await this.locate(id, ctx);
    const rows = locatedRows(located);
    return rows.length > 0 ? rows : this.#deadCopies(id, located);
  }

  // The old copies of the conversation's deleted rows in each readable store's database (asked when no row names it).
  async #deadCopies(c: string, located: readonly HermesLocated[]): Promise<Artifact[]> {
    const ids = [c, ...(this.#purged.get(c)?.ids ?? [])];
    return (await Promise.all(located.filter((l) => l.rows.unreadable === undefined).map((l) => deadCopyArtifacts(this.ports.fs, l.store.db, ids)))).flat();
  }

  // The one dead-copy pass of every SQLite store a purge deletes rows from.
  #wipe(db: string, ids: readonly string[]): ReturnType<typeof wipeDeadCopies> {
    return wipeDeadCopies(this.ports.fs, this.ports.proc, db, [...new Set(ids)], 'Hermes writes without secure_delete');
  }

  /** A store whose layout is unknown, or whose database must not be written, while it names the conversation: the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    return locatedRefusals(this.ports.fs, await this.locate(id, ctx));
  }

  /** True for per-session files or rows naming the conversation: an unreadable shared database says nothing of one conversation. */
  override async hasArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      const located = await this.locate(c, ctx);
      if (located.some((l) => l.rows.rows.length > 0)) return true;
      if ((await existingArtifacts(this.ports.fs, await locatedFiles(this.ports.fs, located))).length > 0) return true;
      return (await this.#deadCopies(c, located)).length > 0;
    } catch {
      return false;
    }
  }

  /** Shared rows (`gateway_routing.entry_json`) and files (`sessions/sessions.json`, `logs/*.log`) still naming an id of the conversation; never removed. */
  override async mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const out: Artifact[] = [];
      for (const l of await this.locate(c, ctx)) {
        out.push(...l.rows.shared, ...(await hermesMentions(this.ports.fs, l.store.root, l.fileIds)).map((path) => ({ kind: 'file' as const, path })));
      }
      return out;
    } catch {
      return [];
    }
  }

  /** A read-only look at every Hermes store (never runs the CLI): schema versions, layout verdicts, counts, problems. Never rejects. */
  async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
    try {
      return await inspectHermesStores(this.ports.fs, await this.stores(ctx));
    } catch (err) {
      return { agent: 'hermes', presence: 'present', root: null, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`] };
    }
  }

  /** The active Hermes root (`$HERMES_HOME`, else `<home>/.hermes`). */
  protected override async storeRoot(ctx: HomeDiscoveryContext): Promise<string> {
    return hermesPaths(ctx.home, await this.env(ctx)).root;
  }

  private async stores(ctx: HomeDiscoveryContext): Promise<HermesStore[]> {
    return hermesStores(this.ports.fs, ctx.home, await this.env(ctx));
  }

  private async locate(c: string, ctx: HomeDiscoveryContext): Promise<HermesLocated[]> {
    return locateHermes(this.ports.fs, await this.stores(ctx), c, this.#purged.get(c)?.ids ?? []);
  }
}
