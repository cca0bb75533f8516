import type { SessionRow } from '../../registry/session-row.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { type ArtifactPath, leftArtifacts, pathArtifact, removeArtifacts } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import { psHint } from '../common/in-use.js';
import type { CaptureResult, DiscoveryContext } from '../types.js';
import { agyCacheNames, readAgyCache } from './agy-cache.js';
import { captureAgy } from './agy-capture.js';
import { agyActivityMs, agyDbReadable } from './agy-conversation-db.js';
import { AGY_UNKNOWN_LAYOUT, agyUnknownEntries } from './agy-layout.js';
import { agyArtifactPaths, agyDbPath, agyHeldPaths, agyLockPath, agyPaths } from './agy-paths.js';
import { directoryMatcher } from './same-directory.js';

/**
 * The Antigravity CLI (`agy`, post-discovered): conversations under `<home>/.gemini/antigravity-cli/` — a SQLite database
 * per conversation with its sidecars, a brain dir, a title annotation and a presence lock — and a shared cache mapping
 * each workspace to its last conversation, the only record of which workspace a conversation belongs to.
 * @example
 * ```ts
 * const agy = getAdapter('agy');
 * const ids = await agy.discover({ workspace: '/repo', homeDir: '/home/me' }); // newest first
 * ```
 * @public
 */
export class AgyAdapter extends BaseAdapter {
  /** Always `agy`. */
  readonly name = 'agy' as const;
  /** Post-discovered: agy picks the conversation id; capture finds it on disk. */
  readonly idLifecycle = 'post_discovered' as const;
  /** agy exports the conversation id to its tool shells as `ANTIGRAVITY_CONVERSATION_ID`. */
  override readonly sessionEnvVar = 'ANTIGRAVITY_CONVERSATION_ID';

  /** The CLI arguments that resume a conversation (`agy --conversation <id>`), empty for an implausible id. */
  resumeArgs(id: string): string[] {
    const c = this.canonical(id);
    return c === null ? [] : ['--conversation', c];
  }

  /** Conversations the cache maps this workspace to whose database opens with a schema, active at or after `ctx.epoch`. */
  async discover(ctx: DiscoveryContext): Promise<string[]> {
    try {
      const p = agyPaths(ctx.homeDir);
      const here = await directoryMatcher(this.ports.fs, ctx.workspace);
      const ids = new Set<string>();
      for (const e of await readAgyCache(this.ports.fs, p.cacheFile)) if (await here.matches(e.workspace)) ids.add(e.id);
      const found: Array<{ id: string; at: number }> = [];
      for (const id of ids) {
        const db = agyDbPath(p, id);
        if (!(await agyDbReadable(this.ports.fs, db))) continue;
        const at = (await agyActivityMs(this.ports.fs, db)) ?? Number.NEGATIVE_INFINITY;
        if (ctx.epoch !== undefined && !(at >= ctx.epoch * 1000)) continue;
        found.push({ id, at });
      }
      return found.sort((a, b) => b.at - a.at || a.id.localeCompare(b.id)).map((f) => f.id);
    } catch {
      return [];
    }
  }

  /**
   * The database opens with a schema and the cache does not map the id only to other workspaces; `discover` mode also
   * needs the cache to map this workspace to it, and never accepts an id another row records.
   */
  async verifyArtifact(id: string, ctx: DiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      if (mode === 'discover' && this.claimedBySibling(c, ctx)) return false;
      const p = agyPaths(ctx.homeDir);
      const here = await directoryMatcher(this.ports.fs, ctx.workspace);
      const mapped = (await readAgyCache(this.ports.fs, p.cacheFile)).filter((e) => e.id === c);
      let mine = false;
      for (const e of mapped) if (await here.matches(e.workspace)) mine = true;
      if (mapped.length > 0 && !mine) return false;
      if (mode === 'discover' && !mine) return false;
      return await agyDbReadable(this.ports.fs, agyDbPath(p, c));
    } catch {
      return false;
    }
  }

  /** The one cached candidate whose presence lock or database the row's pane process (or a descendant) holds open; anything unprovable is not captured. */
  override captureActiveSessionId(row: SessionRow, ctx: DiscoveryContext): Promise<CaptureResult> {
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

  /** Brain dir, annotation, database sidecars, database, presence lock — in removal order. */
  protected async artifactPaths(id: string, ctx: DiscoveryContext): Promise<ArtifactPath[]> {
    return agyArtifactPaths(agyPaths(ctx.homeDir), id);
  }

  /** The database, its sidecars and the presence lock. */
  protected override async heldPaths(id: string, ctx: DiscoveryContext): Promise<string[]> {
    return agyHeldPaths(agyPaths(ctx.homeDir), id);
  }

  /** A `ps` line for the id and an `lsof` line for its presence lock and database. */
  override inUseHints(id: string, ctx: DiscoveryContext): string[] {
    const c = this.canonical(id);
    if (c === null) return [];
    const p = agyPaths(ctx.homeDir);
    return [psHint(c), `lsof ${agyLockPath(p, c)} ${agyDbPath(p, c)}`];
  }

  /**
   * Removes every artifact that exists (brain, annotation, sidecars, database), then the presence lock — only when a fresh
   * in-use check finds nobody; while anything uses the conversation the lock stays and is the residual. Removes nothing
   * when the root holds entries of the id in a layout this adapter does not know (see residual). Never throws.
   */
  override async purgeArtifacts(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const p = agyPaths(ctx.homeDir);
      if ((await agyUnknownEntries(this.ports.fs, p, c)).length > 0) return [];
      const lock: ArtifactPath = { root: p.root, path: agyLockPath(p, c) };
      const done = await removeArtifacts(this.ports.fs, agyArtifactPaths(p, c).filter((i) => i.path !== lock.path));
      if (await this.lockFree(c, ctx)) done.purged.push(...(await removeArtifacts(this.ports.fs, [lock])).purged);
      return done.purged;
    } catch {
      return [];
    }
  }

  /** The artifacts still there (a path behind a linked dir included), and each entry of an unknown layout with the refusal. */
  override async residualArtifacts(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const p = agyPaths(ctx.homeDir);
      const files = await leftArtifacts(this.ports.fs, agyArtifactPaths(p, c));
      return [...files, ...(await this.#unknown(c, ctx))];
    } catch {
      return [];
    }
  }

  /** Each entry of the id in a layout this adapter does not know: the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    return this.#unknown(id, ctx);
  }

  async #unknown(c: string, ctx: DiscoveryContext): Promise<LeftArtifact[]> {
    const p = agyPaths(ctx.homeDir);
    const unknown = await agyUnknownEntries(this.ports.fs, p, c);
    return Promise.all(unknown.map(async (u) => ({ ...((await pathArtifact(this.ports.fs, u)) ?? { kind: 'file' as const, path: u }), reason: AGY_UNKNOWN_LAYOUT })));
  }

  /** The agy root `<home>/.gemini/antigravity-cli`. */
  protected override async storeRoot(ctx: DiscoveryContext): Promise<string> {
    return agyPaths(ctx.homeDir).root;
  }

  /** The shared last-conversation cache when it still names the id (never rewritten by a purge). */
  override async mentions(id: string, ctx: DiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const p = agyPaths(ctx.homeDir);
    return (await agyCacheNames(this.ports.fs, p.cacheFile, c)) ? [{ kind: 'file', path: p.cacheFile }] : [];
  }

  // Right before the lock goes: a holder that appeared (or stayed) since the caller's gate keeps it; a failed check too.
  private async lockFree(id: string, ctx: DiscoveryContext): Promise<boolean> {
    try {
      return (await this.inUseHolders(id, ctx)).length === 0;
    } catch {
      return false;
    }
  }
}
