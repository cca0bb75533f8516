import { join } from 'node:path';
import type { DiscoveryContext } from '../types.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { type ArtifactPath, leftArtifacts, removeArtifacts } from '../common/artifacts.js';
import { type Artifact, asLeft, type LeftArtifact} from '../../purge/artifact.js';
import { psHint } from '../common/in-use.js';
import { discoverThreads } from './codex-discover.js';
import { codexHome, type CodexHome } from './codex-home.js';
import { surveyCodex, surveyPaths, type CodexSurvey } from './codex-survey.js';
import { rowsNaming } from './rows-naming.js';
import { verifyThread } from './codex-verify.js';
import { purgeDbRows } from './db-purge.js';
import { workspaceCwds } from './workspace-cwds.js';
import { surveyCodexStore } from './codex-store-survey.js';
import type { StoreSurvey } from '../types.js';
import { sharedMentions } from './shared-mentions.js';
import { describeError } from '../../errors.js';

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
 * const [newest] = await codex.discover({ workspace: '/repo', homeDir: '/home/me' });
 * ```
 * @public
 */
export class CodexAdapter extends BaseAdapter {
  /** Always `codex`. */
  readonly name = 'codex' as const;
  /** Post-discovered: Codex picks the thread id; capture finds it on disk. */
  readonly idLifecycle = 'post_discovered' as const;
  // Codex 0.171 exports both CODEX_THREAD_ID and CODEX_SESSION_ID (= the id) to its tool shells; the in-use check reads both.
  /** `CODEX_THREAD_ID`, which Codex exports to its tool shells (`CODEX_SESSION_ID` too; the in-use check reads both). */
  override readonly sessionEnvVar = 'CODEX_THREAD_ID';

  async #home(ctx: DiscoveryContext): Promise<CodexHome> {
    return codexHome(await this.env(ctx), ctx.homeDir);
  }

  async #survey(id: string, ctx: DiscoveryContext): Promise<CodexSurvey> {
    return surveyCodex(this.ports.fs, await this.#home(ctx), id);
  }

  /** Thread ids of this workspace's `cwd` from the state databases (each proven by its rollout), scanning rollouts only when no database lists them all; newest first, active at or after `ctx.epoch`; none on a failure. */
  async discover(ctx: DiscoveryContext): Promise<string[]> {
    try {
      const since = ctx.epoch !== undefined && Number.isFinite(ctx.epoch) ? ctx.epoch * 1000 : undefined;
      // The workspace's realpath resolves while the home is listed (a rejection is awaited, hence caught, below).
      const cwds = workspaceCwds(this.ports.fs, ctx.workspace);
      cwds.catch(() => undefined);
      return (await discoverThreads(this.ports.fs, await this.#home(ctx), cwds, since)).map((d) => d.id);
    } catch {
      return [];
    }
  }

  /** Does the id have a conversation of this workspace: its `threads` row's cwd and rollout, or else a rollout naming id and workspace (`discover` mode is stricter and excludes ids other rows record); false on any failure. */
  async verifyArtifact(id: string, ctx: DiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
    try {
      const cwds = await workspaceCwds(this.ports.fs, ctx.workspace);
      return await verifyThread(this.ports.fs, await this.#home(ctx), cwds, c, mode === 'discover');
    } catch {
      return false;
    }
  }

  /** Rollouts, shell snapshots and the writer lock of the thread. */
  protected async artifactPaths(id: string, ctx: DiscoveryContext): Promise<ArtifactPath[]> {
    return surveyPaths(await this.#survey(id, ctx));
  }

  // The writer lock (flocked by a live Codex) and the rollout (kept open) speak for this thread alone; the databases are
  // shared by every thread, so a holder of them proves nothing about this one.
  /** The rollouts and the writer lock (the shared databases prove nothing about one thread). */
  protected override async heldPaths(id: string, ctx: DiscoveryContext): Promise<string[]> {
    const s = await this.#survey(id, ctx);
    return [...s.artifacts.rollouts.map((r) => r.path), s.artifacts.lock.path];
  }

  /** Rows of every Codex database whose thread columns name the id (kind `rows`). */
  protected override async dbRows(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    return (await rowsNaming(this.ports.fs, await this.#survey(id, ctx), id, (i) => i.columns.owned)).rows;
  }

  /** Deletes those rows, opening for writing only a database that holds some; a database that refused or failed is kept for the residual. */
  protected override async purgeDbRows(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    return this.#purgeRows(await this.#survey(id, ctx), id, false);
  }

  /** A state database of an unknown layout (or unreadable): the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    return (await this.#survey(id, ctx)).refusals;
  }

  // Deletes the thread's rows database by database; why a database kept its rows is remembered for the residual.
  async #purgeRows(s: CodexSurvey, id: string, keepThreads: boolean): Promise<Artifact[]> {
    const deleted: Artifact[] = [];
    const failures: LeftArtifact[] = [];
    for (const i of s.dbs) {
      if (!i.ok || i.columns.owned.length === 0) continue;
      // A read-only look first: a database holding nothing of the thread is never opened for writing.
      const { rows } = await rowsNaming(this.ports.fs, { dbs: [i] }, id, (x) => x.columns.owned);
      if (rows.length === 0) continue;
      const done = await purgeDbRows(this.ports.fs, i.db, id, keepThreads);
      deleted.push(...done.deleted);
      if (done.failure !== null) failures.push(done.failure);
    }
    this.noteRowDeleteFailures(id, failures);
    return deleted;
  }

  /** Removes rollouts and shell snapshots, then the database rows (the `threads` row stays if a rollout could not go), the writer lock last; nothing on an unknown layout. Never throws. */
  override async purgeArtifacts(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    this.noteRowDeleteFailures(c, []);
    try {
      const s = await this.#survey(c, ctx);
      if (s.refusals.length > 0) return [];
      const fs = this.ports.fs;
      // Files before the threads row that ties them to the conversation, the writer lock last: after a partial failure
      // what stays is still attributable (a rollout that could not go keeps its threads row, and both are residual).
      const files = await removeArtifacts(fs, [...s.artifacts.rollouts, ...s.artifacts.snapshots]);
      const stray = s.artifacts.rollouts.some((r) => files.residual.some((a) => a.kind !== 'rows' && a.path === r.path));
      const rows = await this.#purgeRows(s, c, stray);
      const lock = await removeArtifacts(fs, [s.artifacts.lock]);
      return [...rows, ...files.purged, ...lock.purged];
    } catch {
      return [];
    }
  }

  /**
   * Files and rows of the thread still there, with refusals, unreadable dirs and the last purge's failed row deletes
   * (`<db> (<why>: not purged)`) explaining them; a failed check is one entry.
   */
  override async residualArtifacts(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const s = await this.#survey(c, ctx);
      const files = await leftArtifacts(this.ports.fs, surveyPaths(s));
      const { rows, notes } = await rowsNaming(this.ports.fs, s, c, (i) => i.columns.owned);
      const own = [...files, ...rows.map(asLeft)];
      const failed = this.rowDeleteFailures(c, rows);
      const unreadable = s.artifacts.unreadable.map((d): LeftArtifact => ({ kind: 'dir', path: d, reason: 'unreadable' }));
      // Refusals and unreadable places explain what stays; alone they are no evidence of this conversation.
      return own.length === 0 ? [] : [...own, ...failed, ...s.refusals, ...unreadable, ...notes];
    } catch (err) {
      return [{ kind: 'dir', path: ctx.homeDir, reason: `residual check failed: ${message(err)}` }];
    }
  }

  /** Rows of shared tables and shared files that mention the id; never removed. */
  override async mentions(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const s = await this.#survey(c, ctx);
      const { rows } = await rowsNaming(this.ports.fs, s, c, (i) => i.columns.mentions);
      return [...rows, ...(await sharedMentions(this.ports.fs, s.home, c))];
    } catch {
      return [];
    }
  }

  /** The home's rollouts, state databases (layout, rows) and rows recording a rollout outside the home (a moved `CODEX_HOME`). */
  override async survey(ctx: DiscoveryContext): Promise<StoreSurvey> {
    try {
      return await surveyCodexStore(this.ports.fs, await this.#home(ctx));
    } catch (err) {
      return { agent: 'codex', store: 'unreadable', root: ctx.homeDir, reason: message(err) };
    }
  }

  /** A `ps` line for the id and an `lsof` line for its writer lock. */
  override inUseHints(id: string, ctx: DiscoveryContext): string[] {
    const c = this.canonical(id);
    if (c === null) return [psHint(id)];
    const own = this.ports.proc.env();
    const env = ctx.env ?? (own['HOME'] === ctx.homeDir ? own : {});
    return [psHint(c), `lsof ${join(codexHome(env, ctx.homeDir).locks, `${c}.lock`)}`];
  }
}
