import { isAbsolute, normalize } from 'node:path';
import type Database from 'better-sqlite3';
import type { Ports } from '../../ports/index.js';
import type { FileHolder, ProcessInfo } from '../../ports/process.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { type ArtifactPath, pathExists, removeArtifacts } from '../common/artifacts.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import type { HomeDiscoveryContext, InUseHolder, StoreReport } from '../types.js';
import { inspectOpencodeHome } from './opencode-inspect.js';
import { callerOpencodeSession, canUseSession, sessionReach } from './opencode-holders.js';
import { legacySessionRecords, legacyStorageArtifacts } from './legacy-storage.js';
import { findOpencodeBinary } from './opencode-binary.js';
import { purgeOpencodeDb } from './opencode-db-purge.js';
import { opencodeDbFindings } from './opencode-db-rows.js';
import { type OpencodeLayout, OpencodeLayoutCache } from './opencode-layout.js';
import { rememberedProbe } from '../../sqlite/remembered-probe.js';
import { deadCopyArtifacts } from '../../sqlite/finish-dead-copies.js';
import { type OpencodeLocation, type OpencodeLocator, opencodeLocatorOf } from './opencode-locator.js';
import { opencodeLogMentions } from './opencode-mentions.js';
import { OPENCODE_INPUT_PLACEHOLDER, OPENCODE_INPUT_PLACEHOLDER_PATTERN } from './opencode-placeholder.js';
import { isOpencodeService } from './opencode-service.js';
import { type OpencodeSessionRow, sessionRows, trimDir, workspaceSessions } from './opencode-sessions.js';
import { describeError } from '../../errors.js';
import { homeChecked } from '../../validation/discovery-context.js';
import { provingDirLook } from '../../validation/home-proof.js';
import { surveyOpencodeStore } from './opencode-store-survey.js';
import type { RemainsBelonging, StoreSurvey, VerifyQuery } from '../types.js';
import { type SessionQueryOf, type SessionVerdict, sessionVerdicts } from './opencode-verify-many.js';

/**
 * OpenCode (post-discovered, ids `ses_…`): sessions in the shared `opencode.db` — the 1.x `session` table (OpenCode 1.18)
 * and/or the 2.x `session_v2` table — plus the shared log and, in old homes, legacy JSON storage. A database with neither
 * table is an unknown layout: discovery finds nothing there and a purge refuses.
 * @example
 * ```ts
 * const ids = await new OpencodeAdapter(nodePorts()).discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export class OpencodeAdapter extends BaseAdapter {
  /** Always `opencode`. */
  readonly name = 'opencode' as const;
  /** Post-discovered: OpenCode picks the session id (`ses_…`); capture finds it in the database. */
  readonly idLifecycle = 'post_discovered' as const;
  /** The session variable checked in the caller's environment; OpenCode 1.18.33 exports none to its tool shells (only `OPENCODE_PID`, which {@link OpencodeAdapter.inUseHolders} uses), as the real-CLI suite shows. */
  override readonly sessionEnvVar = 'OPENCODE_SESSION_ID';
  /** The idle TUI keeps an `opencode` child process. */
  override readonly residentChildren: readonly string[] = ['opencode'];
  /** The literal start of the TUI's empty-input text, `Ask anything…`. */
  readonly inputPlaceholder = OPENCODE_INPUT_PLACEHOLDER;
  /** The TUI's empty-input line; the closing quote is optional because a narrow box cuts the example. */
  readonly inputPlaceholderPattern = OPENCODE_INPUT_PLACEHOLDER_PATTERN;
  /** The read-only methods read while the home is checked; the one spawn they may make (`opencode debug paths`) waits for the check. */
  protected override readonly spawnsAfterHomeCheck = true;
  /** Discovery and verification look at the store's directory (inside the home by default), which proves the home a directory. */
  protected override readonly provesHome = true;
  readonly #locator: OpencodeLocator;
  readonly #layouts = new OpencodeLayoutCache();
  // The ports' clock: a database's layout is remembered only once its file and sidecars have settled by it.
  readonly #now = (): number => this.ports.clock.now();
  // What the last purge of a canonical id could not guarantee (a busy WAL still holding the deleted text).
  readonly #notes = new Map<string, string[]>();

  /** Builds the adapter over `ports`; a successful database lookup is kept per (binary, HOME, XDG_DATA_HOME) for the life of the ports. */
  constructor(ports: Ports) {
    super(ports);
    this.#locator = opencodeLocatorOf(ports.fs, ports.proc);
  }

  /** Where this context's OpenCode data and database are (null for a relative home). */
  protected async locate(ctx: HomeDiscoveryContext): Promise<OpencodeLocation | null> {
    return this.#locator.locate(ctx.home, await this.env(ctx), this.#homeGate(ctx));
  }

  // What a spawn waits for: the argument check's stat of the home, which runs while the read-only methods read.
  #homeGate(ctx: HomeDiscoveryContext): () => Promise<void> {
    return () => homeChecked(this.ports.fs, ctx);
  }

  // The workspace as given, normalised (`session.directory` is the cwd OpenCode saw); null for one no path can match.
  static #given(workspace: string): string | null {
    return !isAbsolute(workspace) || workspace.includes('\0') ? null : trimDir(normalize(workspace));
  }

  // The workspace's realpath (the given spelling when it cannot be resolved).
  async #real(given: string): Promise<string> {
    return trimDir(await this.ports.fs.realpath(given).catch(() => given));
  }

  // The workspace as given and as resolved.
  async #workspaceDirs(ctx: HomeDiscoveryContext): Promise<string[]> {
    const given = OpencodeAdapter.#given(ctx.workspace);
    return given === null ? [] : [...new Set([given, await this.#real(given)])];
  }

  // The verdicts settled: a top-level row naming another directory verifies when that is the workspace's realpath, each
  // distinct workspace resolved once (and only when some row needs it).
  async #settle(verdicts: readonly SessionVerdict[], given: ReadonlyArray<string | null>): Promise<boolean[]> {
    const reals = new Map<string, Promise<string>>();
    return Promise.all(
      verdicts.map(async (v, i) => {
        const g = given[i];
        if (typeof v === 'boolean' || g === undefined || g === null) return v === true;
        let real = reals.get(g);
        if (real === undefined) reals.set(g, (real = this.#real(g)));
        return v.dirs.includes(await real);
      }),
    );
  }

  // Reads the database read-only; a missing or unreadable one gives `fallback`.
  // Its layout is remembered under the lstats of the file and its sidecars once settled by the ports' clock.
  // With `proving` (a discover or verify's context), the opener's look at the database's directory, when that lies inside
  // the home, proves the home a directory (the argument check's stat then not taken); else that stat starts now.
  async #read<T>(dbPath: string, fallback: T, fn: (db: Database.Database, layout: () => OpencodeLayout) => T | Promise<T>, proving?: HomeDiscoveryContext): Promise<T> {
    const dirLook = proving === undefined ? undefined : provingDirLook(this.ports.fs, proving)(dbPath);
    try {
      // A missing database rejects (NotFound) like any unreadable one, and one that is not a regular file is refused: no separate look first.
      return await withReadonlyDb(dbPath, { fs: this.ports.fs, requireFile: true, dirLook }, (h) =>
        fn(h.db, () => rememberedProbe(this.ports.fs, `opencode-layout\0${dbPath}`, h, this.#now, () => this.#layouts.layoutOf(h.db, dbPath))),
      );
    } catch {
      return fallback;
    }
  }

  /** Top-level (not sub-agent) sessions of this workspace's directory, in either schema, at or after `ctx.epoch`; newest first. */
  async discover(ctx: HomeDiscoveryContext): Promise<string[]> {
    // The workspace resolves while the database is looked at and opened.
    const spellings = this.#workspaceDirs(ctx);
    const loc = await this.locate(ctx);
    if (loc === null) return [];
    const since = ctx.epoch === undefined || !Number.isFinite(ctx.epoch) ? undefined : ctx.epoch * 1000;
    return this.#read(loc.dbPath, [], async (db, layout) => {
      const dirs = await spellings;
      return dirs.length === 0 ? [] : workspaceSessions(db, layout(), dirs, since);
    }, ctx);
  }

  /** A top-level session row with this id whose directory is this workspace (`discover` mode also excludes ids other rows record). */
  async verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
    const given = OpencodeAdapter.#given(ctx.workspace);
    if (given === null) return false;
    const loc = await this.locate(ctx);
    if (loc === null) return false;
    // The one rule of verifyMany, for one id (a child, sub-agent, session is never the row's conversation: its parent is).
    const v = await this.#read(loc.dbPath, false as SessionVerdict, (db, layout) => sessionVerdicts(db, layout(), [{ id: c, given }])[0] ?? false, ctx);
    return (await this.#settle([v], [given]))[0] === true;
  }

  /**
   * Once no database row of the session is left (a purge stopped past its row delete), the workspace its legacy session
   * file records (`directory`; the file goes last): `here` when every such file records the workspace (as given or
   * resolved), `elsewhere` when one records another, `unrecorded` when none records any. Null while a row is there (the
   * session is whole: its verification answers), when the database cannot be read, or for a child session.
   */
  async remainsBelonging(id: string, ctx: HomeDiscoveryContext): Promise<RemainsBelonging | null> {
    const c = this.canonical(id);
    const loc = c === null ? null : await this.locate(ctx).catch(() => null);
    if (c === null || loc === null) return null;
    const rows = await this.#read(loc.dbPath, null as OpencodeSessionRow[] | null, (db, layout) => sessionRows(db, layout(), c));
    if (rows === null || rows.length > 0) return null;
    const legacy = await legacySessionRecords(this.ports.fs, loc.dataDir, c);
    const recorded = legacy.directories.filter((d): d is string => d !== null).map((d) => trimDir(normalize(d)));
    if (legacy.child) return null;
    if (recorded.length === 0) return 'unrecorded';
    const here = await this.#workspaceDirs(ctx);
    return recorded.every((d) => here.includes(d)) ? 'here' : 'elsewhere';
  }

  /** Has the home any artifact of the id: a session row by id answers at once; otherwise every place is looked at (orphaned rows and legacy files count). */
  override async owns(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    // A session row of the id is one of the rows hasArtifacts counts (every layout's session id column is looked at).
    const rowAt = (dbPath: string): Promise<boolean> => this.#read(dbPath, false, (db, layout) => sessionRows(db, layout(), c).length > 0);
    // The default database is read while the locator looks for the executable (and asks `debug paths`, once per key); its
    // answer counts only when the locator names that same file, and it is always awaited.
    const env = await this.env(ctx);
    const guess = this.#locator.defaultDbPath(ctx.home, env);
    const early = guess === null ? null : rowAt(guess);
    const loc = await this.#locator.locate(ctx.home, env, this.#homeGate(ctx)).catch(() => null);
    const found = loc === null ? false : loc.dbPath === guess && early !== null ? await early : await rowAt(loc.dbPath);
    await early;
    if (found) return true;
    return this.hasArtifacts(c, ctx);
  }

  /** `verifyArtifact` in `verify` mode for many ids at once: the database located, opened and its layout probed once for the batch, the ids looked up in one statement per table, each distinct workspace resolved at most once (and only when a row names another directory). */
  override async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    const batch: SessionQueryOf[] = queries.map((qy) => {
      const c = this.canonical(qy.id);
      return { id: c ?? '', given: c === null ? null : OpencodeAdapter.#given(qy.workspace ?? ctx.workspace) };
    });
    if (batch.every((b) => b.given === null)) return queries.map(() => false);
    const loc = await this.locate(ctx).catch(() => null);
    if (loc === null) return queries.map(() => false);
    const verdicts = await this.#read(loc.dbPath, queries.map((): SessionVerdict => false), (db, layout) => sessionVerdicts(db, layout(), batch), ctx);
    return this.#settle(verdicts, batch.map((b) => b.given)).catch(() => queries.map(() => false));
  }

  /** The session's legacy JSON storage files (old homes only); its database rows are not paths. */
  protected async artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> {
    const loc = await this.locate(ctx);
    return loc === null ? [] : legacyStorageArtifacts(this.ports.fs, loc.dataDir, id);
  }

  // The database and its sidecars are shared by every session: any holder but the background service counts.
  /** The shared database and its sidecars: any holder but the per-user service counts. */
  protected override async heldPaths(_id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const loc = await this.locate(ctx);
    return loc === null ? [] : ['', '-wal', '-shm', '-journal'].map((s) => loc.dbPath + s);
  }

  /**
   * The live uses of the session: the shared rule (command lines, session variables, holders of the database), with a
   * holder of the shared database counted only when it can be using this session — its command line names the id, or its
   * cwd lies in a directory of the session's project (its directory, the worktree, another checkout OpenCode ran in: a
   * TUI lists its project's sessions, from any clone of it); when its cwd cannot be read (or the session's directory is
   * unknown, or it belongs to the `global` project) every holder counts, as before (home-wide). And the opencode process
   * whose tool shell runs the caller (`OPENCODE_PID`), when it can be using the session.
   */
  override async inUseHolders(id: string, ctx: HomeDiscoveryContext): Promise<InUseHolder[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const all = await super.inUseHolders(c, ctx);
    const env = this.ports.proc.env();
    if (!all.some((h) => h.signal === 'open-file') && (env['OPENCODE_PID'] ?? '') === '') return all;
    const loc = await this.locate(ctx);
    const dirs = loc === null ? [] : await this.#read(loc.dbPath, [] as string[], (db) => sessionReach(db, c));
    const out: InUseHolder[] = [];
    for (const h of all) if (h.signal !== 'open-file' || (await canUseSession(this.ports.proc, h, c, dirs))) out.push(h);
    for (const h of await callerOpencodeSession(this.ports.proc, c, dirs)) if (!out.some((o) => o.pid === h.pid)) out.push(h);
    return out;
  }

  /** A `ps` line for the id, and how to see which processes hold the shared database and where they run. */
  override inUseHints(id: string, ctx: HomeDiscoveryContext): string[] {
    const base = super.inUseHints(id, ctx);
    if (base.length === 0) return base;
    // OpenCode keeps every session in one database: a holder counts for a session only when its cwd shows it can reach it.
    return [...base, 'lsof "$XDG_DATA_HOME/opencode/opencode.db" ~/.local/share/opencode/opencode.db  # then: ls -l /proc/<pid>/cwd (a holder whose cwd cannot be read counts for every session of the home)'];
  }

  /** The per-user background service (`opencode serve --service`) holds the database for every session and does not count. */
  protected override ignoreHolder(_holder: FileHolder, proc: ProcessInfo | undefined): boolean {
    return isOpencodeService(proc);
  }

  /**
   * Rows naming the id in either schema (then the refusal on an unknown layout); an unreadable database is one entry with
   * its reason. When no row names it, old copies of its deleted rows still in the file's bytes (a purge interrupted after
   * its delete) are one entry too (`deadCopyArtifacts`), which a purge finishes.
   */
  protected override async dbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const loc = await this.locate(ctx);
    if (loc === null || !(await pathExists(this.ports.fs, loc.dbPath))) return [];
    try {
      const found = await withReadonlyDb(loc.dbPath, { fs: this.ports.fs }, (h) => {
        const f = opencodeDbFindings(h.db, loc.dbPath, id);
        return f.refusal === null ? f.rows : [...f.rows, f.refusal];
      });
      return found.length > 0 ? found : await deadCopyArtifacts(this.ports.fs, loc.dbPath, [id]);
    } catch (err) {
      return [{ kind: 'file', path: loc.dbPath, reason: `unreadable: ${describeError(err)}` } as LeftArtifact];
    }
  }

  /** A database of an unknown layout naming the id: the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const loc = await this.locate(ctx);
    if (loc === null || !(await pathExists(this.ports.fs, loc.dbPath))) return [];
    try {
      const refusal = await withReadonlyDb(loc.dbPath, { fs: this.ports.fs }, (h) => opencodeDbFindings(h.db, loc.dbPath, id).refusal);
      return refusal === null ? [] : [refusal];
    } catch {
      return [];
    }
  }

  /** Deletes the session and its child sessions (`opencode session delete` for 2.x, then the 1.x rows), then legacy storage; nothing more when the database purge refuses. Never throws. */
  override async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const loc = await this.locate(ctx);
      if (loc === null) return [];
      const db = await purgeOpencodeDb(this.ports.fs, this.ports.proc, loc, c);
      if ((db.notes ?? []).length > 0) this.#notes.set(c, db.notes ?? []);
      else this.#notes.delete(c);
      // A refused database purge removes nothing else either: the residual says why, and a retry finds everything.
      this.noteRowDeleteFailures(c, db.reason === undefined ? [] : [db.reason]);
      if (db.refused) return db.removed;
      const files: ArtifactPath[] = [];
      for (const who of [...db.children, c]) files.push(...(await legacyStorageArtifacts(this.ports.fs, loc.dataDir, who)));
      // Part folders are found only through their message folder: stop at a failure so a rerun still finds them.
      const done = await removeArtifacts(this.ports.fs, files, { stopOnFailure: true });
      return [...db.removed, ...done.purged];
    } catch {
      return [];
    }
  }

  /** What the last purge of the id could not guarantee (a `-wal` another connection kept busy still holds the deleted text; a 2.x `session delete` run by the CLI, whose connection is not ours). */
  protected override async purgeNotes(id: string, _ctx: HomeDiscoveryContext): Promise<string[]> {
    const c = this.canonical(id);
    return c === null ? [] : [...(this.#notes.get(c) ?? [])];
  }

  /** OpenCode's shared log files (`<data>/log/*.log`) whose text names the id; never removed. */
  override async mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const loc = await this.locate(ctx);
      return loc === null ? [] : (await opencodeLogMentions(this.ports.fs, loc.dataDir, c)).map((path) => ({ kind: 'file' as const, path }));
    } catch {
      return [];
    }
  }

  /** A read-only look at the OpenCode data dir (never runs the CLI): layout, versions, session counts, problems. Never rejects. */
  async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
    const env = await this.env(ctx);
    return inspectOpencodeHome(this.ports.fs, ctx.home, env).catch((err: unknown) => ({
      agent: 'opencode' as const,
      presence: 'present' as const,
      root: null,
      layout: null,
      known: false,
      counts: {},
      problems: [`inspection failed: ${describeError(err)}`],
    }));
  }

  /** The database: missing, unreadable, of an unknown layout, or its session counts. */
  override async survey(ctx: HomeDiscoveryContext): Promise<StoreSurvey> {
    const loc = await this.locate(ctx).catch(() => null);
    if (loc === null) return { agent: 'opencode', store: 'missing', root: ctx.home, reason: 'no OpenCode data dir for this home (a relative home?)' };
    return surveyOpencodeStore(this.ports.fs, loc);
  }

  /** True when an `opencode` executable is on PATH or under `<home>/.opencode/bin`. */
  override async authOk(ctx: HomeDiscoveryContext): Promise<boolean> {
    const env = await this.env(ctx);
    const pathVar = 'PATH' in env ? env['PATH'] : this.ports.proc.env()['PATH'];
    return (await findOpencodeBinary(this.ports.fs, pathVar, ctx.home)) !== null;
  }
}
