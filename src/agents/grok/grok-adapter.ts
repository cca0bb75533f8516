import { join } from 'node:path';
import { verifyCanonical } from '../common/batch-memo.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import type { ProcessInfo } from '../../ports/process.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { psHint } from '../common/in-use.js';
import { describeError } from '../../errors.js';
import type { AdapterPurgePlan, HomeDiscoveryContext, InUseHolder, PreflightResult, StoreReport, VerifyQuery } from '../types.js';
import { grokActiveSessionsPath } from './grok-active-sessions.js';
import { GROK_REMOTE_NOTE } from './grok-remote-note.js';
import { type GrokHome, grokHome } from './grok-home.js';
import { grokInUse } from './grok-in-use.js';
import { inspectGrokHome } from './grok-inspect.js';
import { grokMentions } from './grok-mentions.js';
import { grokParents } from './grok-parents.js';
import { grokArtifactPaths, grokArtifacts, grokLeft, purgeGrokSurvey } from './grok-purge.js';
import { listGrokDir } from './grok-read.js';
import { type GrokSurvey, surveyGrok } from './grok-survey.js';
import { type GrokVerifyQuery, grokVerifyMany } from './grok-verify-many.js';
import { grokWorkspaceSessions } from './grok-workspace-sessions.js';

/** Long enough for a cold `grok --version`; a CLI that takes longer is taken as not able to start. */
const AUTH_TIMEOUT_MS = 15_000;

/**
 * Grok Build (`grok`, pre-assigned: the library chooses the uuid with `--session-id`/`-s`, `grok --resume <id>` resumes
 * it). A conversation is `$GROK_HOME/sessions/<urlencoded cwd>/<id>/` (home `~/.grok` by default) with its `summary.json`,
 * a row of `sessions/session_search.sqlite`, and its subagent children's own session dirs, found through
 * `subagents/<child>/meta.json`. A purge removes all of them (grok's own delete misses the children) and lists the shared
 * records still naming the id (prompt history, `active_sessions.json`, `worktrees.db`) as mentions.
 * @example
 * ```ts
 * const grok = getAdapter('grok');
 * const [newest] = await grok.discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export class GrokAdapter extends BaseAdapter {
  /** Always `grok`. */
  readonly name = 'grok' as const;
  /** Pre-assigned: mam passes a fresh uuid as `--session-id` (grok's `-s`, new sessions only). */
  readonly idLifecycle = 'pre_assigned' as const;
  /** `GROK_SESSION_ID`, which grok gives its hooks and MCP servers (its tool shells get `GROK_AGENT=1` instead). */
  override readonly sessionEnvVar = 'GROK_SESSION_ID';
  /** Discovery, verification and ownership here read files only (no spawn, no write): the home's stat runs alongside. */
  protected override readonly storeReadsOnly = true;

  /** The CLI arguments that resume a conversation (`grok --resume <id>`), empty for an implausible id. */
  resumeArgs(id: string): string[] {
    const c = this.canonical(id);
    return c === null ? [] : ['--resume', c];
  }

  /** A read-only look at the grok home (never runs the CLI): buckets, sessions, search database layout, problems. Never rejects. */
  async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
    try {
      return await inspectGrokHome(this.ports.fs, await this.#home(ctx));
    } catch (err) {
      return { agent: 'grok', presence: 'present', root: null, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`] };
    }
  }

  // The ports' clock: which bucket cwds resolve to themselves is remembered only once their parents have settled by it.
  readonly #now = (): number => this.ports.clock.now();

  async #home(ctx: HomeDiscoveryContext): Promise<GrokHome> {
    return grokHome(await this.env(ctx), ctx.home);
  }

  async #survey(id: string, ctx: HomeDiscoveryContext, rows = true): Promise<GrokSurvey | null> {
    const home = await this.#home(ctx);
    return home.kind === 'ok' ? surveyGrok(this.ports.fs, home.root, id, { rows }) : null;
  }

  /** Visible sessions of this workspace (subagent children and hidden ones skipped), newest first, active at or after `ctx.epoch`. */
  async discover(ctx: HomeDiscoveryContext): Promise<string[]> {
    try {
      const home = await this.#home(ctx);
      if (home.kind !== 'ok') return [];
      const floor = ctx.epoch !== undefined && Number.isFinite(ctx.epoch) ? ctx.epoch * 1000 : undefined;
      const found = await grokWorkspaceSessions(this.ports.fs, home.sessions, ctx.workspace, this.#now);
      return found.filter((s) => !s.hidden && (floor === undefined || (s.activeMs !== null && s.activeMs >= floor))).map((s) => s.id);
    } catch {
      return [];
    }
  }

  /** A visible session of this workspace under this id (`discover` mode also excludes ids other rows record): one query of `grokVerifyMany`. */
  async verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
    } catch {
      return false;
    }
    const [answer] = await this.#verify([{ id: c, workspace: ctx.workspace }], ctx);
    return answer === true;
  }

  /** `verifyArtifact` in `verify` mode for many ids at once: `sessions/` listed once for the batch, each workspace's buckets found once. */
  override async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    return verifyCanonical(queries, ctx.workspace, (id) => this.canonical(id), (batch) => this.#verify(batch, ctx));
  }

  async #verify(batch: readonly GrokVerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    try {
      const home = await this.#home(ctx);
      if (home.kind === 'ok' && batch.length > 0) return await grokVerifyMany(this.ports.fs, home.sessions, batch, this.#now);
    } catch {
      // A context whose home cannot be told verifies nothing.
    }
    return batch.map(() => false);
  }

  /** The session dirs (descendants first) and relocation files, each under grok's home. */
  protected async artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> {
    const s = await this.#survey(id, ctx).catch(() => null);
    return s === null ? [] : grokArtifactPaths(s);
  }

  /** Every session dir of the conversation and its descendants (a shell cd'd into one holds it), their top-level files, and the relocation lock. */
  protected override async heldPaths(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const s = await this.#survey(id, ctx, false).catch(() => null);
    if (s === null) return [];
    const out: string[] = [];
    for (const d of s.dirs) {
      if (d.kind !== 'dir') continue;
      out.push(d.path);
      for (const e of (await listGrokDir(this.ports.fs, d.path)) ?? []) if (e.kind === 'file') out.push(join(d.path, e.name));
    }
    for (const f of s.files) if (f.kind === 'file' && f.path.endsWith('.lock')) out.push(f.path);
    return out;
  }

  /** Live `active_sessions.json` entries, the caller's own grok session, and command lines naming a descendant or parent. */
  protected override async extraInUse(id: string, ctx: HomeDiscoveryContext, snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> {
    try {
      const home = await this.#home(ctx);
      if (home.kind !== 'ok') return [];
      const s = await surveyGrok(this.ports.fs, home.root, id, { rows: false });
      // A subagent child is written by its parent's process: a live parent uses it too.
      const parents = s.subagent ? (await grokParents(this.ports.fs, home.sessions, id)).map((p) => p.id) : [];
      return await grokInUse(this.ports.fs, home.root, [...s.ids, ...parents], snapshot, this.ports.proc.selfPid());
    } catch {
      return [];
    }
  }

  /** What a purge would remove, refuse and leave as mentions, with the notes; changes nothing. Never throws. */
  override async planPurge(id: string, ctx: HomeDiscoveryContext): Promise<AdapterPurgePlan> {
    const c = this.canonical(id);
    const plan: AdapterPurgePlan = { artifacts: [], refused: [], mentions: [], notes: [] };
    if (c === null) return plan;
    try {
      const home = await this.#home(ctx);
      if (home.kind !== 'ok') return { ...plan, refused: [{ kind: 'dir', path: home.value, reason: home.reason }] };
      const s = await surveyGrok(this.ports.fs, home.root, c);
      return { artifacts: grokArtifacts(s), refused: [...s.refused, ...s.dbRefused], mentions: await grokMentions(this.ports.fs, home.root, c, s.subagent || s.dirs.length === 0), notes: await this.purgeNotes(c, ctx) };
    } catch (err) {
      return { ...plan, refused: [{ kind: 'dir', path: ctx.home, reason: `grok survey failed (${err instanceof Error ? err.message : String(err)})` }] };
    }
  }

  /** What a person should know about a grok purge: a remote (cloud) copy, if synced, is out of reach. */
  protected override async purgeNotes(id: string, _ctx: HomeDiscoveryContext): Promise<string[]> {
    return this.canonical(id) === null ? [] : [GROK_REMOTE_NOTE];
  }

  /** Removes the search rows, the session dirs (subagent descendants first) and the relocation files. Never throws. */
  override async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    this.noteRowDeleteFailures(c, []);
    try {
      const s = await this.#survey(c, ctx);
      if (s === null) return [];
      const done = await purgeGrokSurvey(this.ports.fs, this.ports.proc, s);
      this.noteRowDeleteFailures(c, done.rowFailures);
      return done.purged;
    } catch {
      return [];
    }
  }

  /** What is left of the conversation: paths and rows still there, what was refused (with why), failed row deletes. */
  override async residualArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const home = await this.#home(ctx);
      if (home.kind !== 'ok') return [{ kind: 'dir', path: home.value, reason: home.reason }];
      const s = await surveyGrok(this.ports.fs, home.root, c);
      return [...(await grokLeft(this.ports.fs, s)), ...this.rowDeleteFailures(c, s.rows)];
    } catch (err) {
      return [{ kind: 'dir', path: ctx.home, reason: `grok residual check failed: ${err instanceof Error ? err.message : String(err)}` }];
    }
  }

  /** True when a session dir, relocation file or search row of the id exists, or something named by it was refused. */
  override async hasArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      const s = await this.#survey(c, ctx);
      if (s === null) return false;
      return s.dirs.length > 0 || s.files.length > 0 || s.rows.length > 0 || s.refused.length > 0;
    } catch {
      return false;
    }
  }

  /** Shared records still naming the id: prompt history lines, `active_sessions.json`, `worktrees.db` rows, a parent's link. */
  override async mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const home = await this.#home(ctx);
      if (home.kind !== 'ok') return [];
      const s = await surveyGrok(this.ports.fs, home.root, c);
      // Once its own dir is gone, only a parent's link may still say the id was a subagent child.
      return await grokMentions(this.ports.fs, home.root, c, s.subagent || s.dirs.length === 0);
    } catch {
      return [];
    }
  }

  /** A `ps` line for the id and a look at grok's `active_sessions.json`; nothing for an implausible id. */
  override inUseHints(id: string, ctx: HomeDiscoveryContext): string[] {
    const c = this.canonical(id);
    if (c === null) return [];
    const own = this.ports.proc.env();
    const home = grokHome(ctx.env ?? (own['HOME'] === ctx.home ? own : {}), ctx.home);
    return home.kind === 'ok' ? [psHint(c), `cat ${grokActiveSessionsPath(home.root)}`] : [psHint(c)];
  }

  /** `grok --version` exits 0 under this home (the reference preflight ran the binary and failed the create on its exit code). */
  override async authOk(ctx: HomeDiscoveryContext): Promise<boolean> {
    return (await this.preflight(ctx)).ok;
  }

  /** `grok --version` under the context's home must exit 0; its exit code is the create's (1 when it cannot run at all). */
  override async preflight(ctx: HomeDiscoveryContext): Promise<PreflightResult> {
    try {
      const env = { ...(ctx.env ?? this.ports.proc.env()), HOME: ctx.home };
      const res = await this.ports.proc.run('grok', ['--version'], { env, timeoutMs: AUTH_TIMEOUT_MS });
      return res.failed ? { ok: false, exitCode: res.exitCode !== null && res.exitCode !== 0 ? res.exitCode : 1 } : { ok: true, exitCode: 0 };
    } catch {
      return { ok: false, exitCode: 1 };
    }
  }
}
