import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { psHint } from '../common/in-use.js';
import type { DiscoveryContext } from '../types.js';
import { directoryMatcher } from '../agy/same-directory.js';
import { type HermesPaths, hermesPaths } from './hermes-paths.js';
import { purgeHermesRows } from './hermes-purge-rows.js';
import { HERMES_UNKNOWN_LAYOUT, hermesRowsNaming } from './hermes-rows.js';
import { type HermesSession, readHermesSessions } from './hermes-sessions.js';

const SIDECARS = ['-wal', '-shm', '-journal'] as const;

/**
 * Hermes (post-discovered): every session is a row of one shared SQLite database, `<home>/.hermes/state.db` (or
 * `$HERMES_HOME/state.db`), table `sessions(id, cwd, started_at REAL seconds)` plus tables keyed by `session_id`. A purge
 * deletes the conversation's rows and never the file or its sidecars; a layout other than that is read but never purged.
 * @example
 * ```ts
 * const hermes = getAdapter('hermes');
 * const ids = await hermes.discover({ workspace: '/repo', homeDir: '/home/me', epoch: 1767225600 }); // newest first
 * ```
 * @public
 */
export class HermesAdapter extends BaseAdapter {
  /** Always `hermes`. */
  readonly name = 'hermes' as const;
  /** Post-discovered: Hermes picks the session id; capture finds it in `state.db`. */
  readonly idLifecycle = 'post_discovered' as const;
  /** Hermes exports the session id to its tool shells as `HERMES_SESSION_ID`. */
  override readonly sessionEnvVar = 'HERMES_SESSION_ID';

  /** Sessions of this workspace's cwd started at or after `ctx.epoch`, newest first. */
  async discover(ctx: DiscoveryContext): Promise<string[]> {
    try {
      const found = await this.sessionsHere(ctx);
      const epoch = ctx.epoch;
      const fresh = epoch === undefined ? found : found.filter((s) => s.startedAt !== null && s.startedAt >= epoch);
      const order = (s: HermesSession): number => s.startedAt ?? Number.NEGATIVE_INFINITY;
      return [...new Set(fresh.sort((a, b) => order(b) - order(a) || a.id.localeCompare(b.id)).map((s) => s.id))];
    } catch {
      return [];
    }
  }

  /** A `sessions` row with this id and this workspace's cwd; `discover` mode never accepts an id another row records. */
  async verifyArtifact(id: string, ctx: DiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
      return (await this.sessionsHere(ctx, c)).length > 0;
    } catch {
      return false;
    }
  }

  /** Hermes keeps no per-conversation file: everything is a row of the shared database. */
  protected async artifactPaths(): Promise<ArtifactPath[]> {
    return [];
  }

  // The reference system counts any holder of a shared agent DB but a known per-user service (seeds, OpenCode); Hermes
  // has none known, so a process holding state.db may be writing this session and counts — a refusal can be retried,
  // deleted rows cannot come back.
  /** `state.db` and its sidecars: with no known per-user service, any holder may be writing this session. */
  protected override async heldPaths(_id: string, ctx: DiscoveryContext): Promise<string[]> {
    const { db } = await this.paths(ctx);
    return [db, ...SIDECARS.map((s) => db + s)];
  }

  /** A `ps` line for the id and an `lsof` line for `state.db` and its `-wal`. */
  override inUseHints(id: string, ctx: DiscoveryContext): string[] {
    const c = this.canonical(id);
    if (c === null) return [];
    const { db } = hermesPaths(ctx.homeDir, ctx.env ?? {});
    return [psHint(c), `lsof ${db} ${db}-wal`];
  }

  /** Deletes the rows naming the id from `state.db` in one transaction; nothing on an unknown layout. Never throws. */
  override async purgeArtifacts(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const p = await this.paths(ctx);
      const before = await hermesRowsNaming(this.ports.fs, p.db, c);
      if (before.refusal !== undefined || before.unreadable !== undefined || before.rows.length === 0) return [];
      return await purgeHermesRows(this.ports.fs, p.root, p.db, c);
    } catch {
      return [];
    }
  }

  /** Rows still naming the id, the refusal on an unknown layout, or why the database could not be read. Never throws. */
  override async residualArtifacts(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const p = await this.paths(ctx);
      const found = await hermesRowsNaming(this.ports.fs, p.db, c);
      if (found.unreadable !== undefined) return [{ kind: 'file', path: p.db, reason: `unreadable: ${found.unreadable}` }];
      const refusal = found.refusal !== undefined && found.rows.length > 0 ? [this.#refusal(p.db, found.refusal)] : [];
      return [...found.rows.map(asLeft), ...refusal];
    } catch {
      return [];
    }
  }

  /** The rows of `state.db` naming the id (on an unknown layout too: the purge then refuses). */
  protected override async dbRows(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    const p = await this.paths(ctx);
    const found = await hermesRowsNaming(this.ports.fs, p.db, id);
    return found.unreadable !== undefined ? [{ kind: 'file', path: p.db, reason: `unreadable: ${found.unreadable}` } as LeftArtifact] : found.rows;
  }

  /** A `state.db` of an unknown layout naming the id: the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    const p = await this.paths(ctx);
    const found = await hermesRowsNaming(this.ports.fs, p.db, id);
    return found.refusal !== undefined && found.rows.length > 0 ? [this.#refusal(p.db, found.refusal)] : [];
  }

  #refusal(db: string, why: string): LeftArtifact {
    return { kind: 'file', path: db, reason: `${HERMES_UNKNOWN_LAYOUT}: ${why}` };
  }

  /** True only for rows found naming the id: an unreadable shared database says nothing about one conversation. */
  override async hasArtifacts(id: string, ctx: DiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      return (await hermesRowsNaming(this.ports.fs, (await this.paths(ctx)).db, c)).rows.length > 0;
    } catch {
      return false;
    }
  }

  /** The Hermes root (`$HERMES_HOME`, else `<home>/.hermes`). */
  protected override async storeRoot(ctx: DiscoveryContext): Promise<string> {
    return (await this.paths(ctx)).root;
  }

  private async paths(ctx: DiscoveryContext): Promise<HermesPaths> {
    return hermesPaths(ctx.homeDir, await this.env(ctx));
  }

  private async sessionsHere(ctx: DiscoveryContext, onlyId?: string): Promise<HermesSession[]> {
    const { db } = await this.paths(ctx);
    const here = await directoryMatcher(this.ports.fs, ctx.workspace);
    const out: HermesSession[] = [];
    for (const s of await readHermesSessions(this.ports.fs, db, onlyId)) if (await here.matches(s.cwd)) out.push(s);
    return out;
  }
}
