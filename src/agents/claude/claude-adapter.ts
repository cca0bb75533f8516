import { resolve } from 'node:path';
import { verifyCanonical } from '../common/batch-memo.js';
import { removeDirKeepingLast } from '../../paths/remove-dir-keeping-last.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessInfo } from '../../ports/process.js';
import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import { type ArtifactPath, leftArtifacts, pathExists, removeArtifacts } from '../common/artifacts.js';
import { BaseAdapter } from '../common/base-adapter.js';
import type { HomeDiscoveryContext, InUseHolder, StoreReport, VerifyQuery } from '../types.js';
import { inspectClaudeConfig } from './claude-inspect.js';
import { type ClaudeArtifactScan, scanClaudeArtifacts } from './artifact-scan.js';
import { discoverClaude, verifyClaude } from './claude-discover.js';
import { claudeInUseHints } from './claude-hints.js';
import { claudeOwns } from './claude-owns.js';
import { claudeVerifyMany } from './claude-verify-many.js';
import { type ClaudeLocations, claudeLocations } from './claude-locations.js';
import { sessionFilesNaming } from './session-files.js';
import { currentSessionOf } from './pid-file.js';
import { launcherMovedOn } from './launcher-moved-on.js';
import { agentCliName } from '../../process/agent-cli-name.js';
import { sessionLiveness } from './session-liveness.js';
import { sharedFilesNaming } from './shared-mentions.js';
import { describeError } from '../../errors.js';

const SIDECARS = ['', '-wal', '-shm', '-journal'] as const;

function byPid(snapshot: readonly ProcessInfo[]): Map<number, ProcessInfo> {
  return new Map(snapshot.map((p) => [p.pid, p] as const));
}

// The paths among `items` that are directories themselves (not links, not files); never rejects.
async function realDirs(fs: FileSystemPort, items: readonly ArtifactPath[]): Promise<string[]> {
  const kinds = await Promise.all(items.map((i) => fs.lstat(i.path).then((st) => st.kind, () => null)));
  return items.filter((_, n) => kinds[n] === 'dir').map((i) => i.path);
}

function found(scan: ClaudeArtifactScan): ArtifactPath[] {
  return [...scan.items, ...scan.jobs, ...scan.transcripts, ...scan.sessions.flatMap((f) => [...f.companions, f])];
}

/**
 * Claude Code (pre-assigned uuid v4 ids): transcripts `projects/<key>/<id>.jsonl` verified by their records' `cwd`, the
 * conversation's dirs and files across the config root and the temp root, live-session files, background-job dirs; shared
 * files (`.claude.json`, its backups, `history.jsonl`) are only reported. An unknown store naming the id stops a purge.
 * @example
 * ```ts
 * const claude = new ClaudeAdapter(nodePorts());
 * const ctx = { workspace: '/repo', home: '/home/me' };
 * const [newest] = await claude.discover(ctx); // newest first
 * if (newest !== undefined && !(await claude.conversationInUse(newest, ctx))) await claude.purgeArtifacts(newest, ctx);
 * ```
 * @public
 */
export class ClaudeAdapter extends BaseAdapter {
  /** Always `claude`. */
  readonly name = 'claude' as const;
  /** Pre-assigned: mam passes a fresh uuid v4 to `claude --session-id`. */
  readonly idLifecycle = 'pre_assigned' as const;
  /** Claude exports the session id to its tool shells as `CLAUDE_CODE_SESSION_ID`. */
  override readonly sessionEnvVar = 'CLAUDE_CODE_SESSION_ID';
  /** Discovery, verification and ownership here read files only (no spawn, no write): the home's stat runs alongside. */
  protected override readonly storeReadsOnly = true;

  // The ports' clock: a transcript's first cwd is remembered under its lstat only once it has settled by it.
  readonly #now = (): number => this.ports.clock.now();

  /** Where Claude keeps things for this context (the agent env decides: a sandbox home never inherits the caller's). */
  protected async locations(ctx: HomeDiscoveryContext): Promise<ClaudeLocations> {
    return claudeLocations(await this.env(ctx), ctx.home, ctx.workspace);
  }

  /** Ids of the workspace's transcripts `projects/<key>/<id>.jsonl`, newest first. */
  async discover(ctx: HomeDiscoveryContext): Promise<string[]> {
    return discoverClaude(this.ports.fs, await this.locations(ctx), ctx);
  }

  /** Does the id's transcript exist under this workspace's project key (`discover` mode: its records' `cwd` must match and no other row may record the id). */
  async verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode: 'verify' | 'discover' = 'verify'): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    return verifyClaude(this.ports.fs, await this.locations(ctx), ctx, c, mode);
  }

  /** `verifyArtifact` in `verify` mode for many ids at once: each workspace resolved, the unknown stores listed and read once for the batch. */
  override async verifyMany(queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
    try {
      return await verifyCanonical(queries, ctx.workspace, (id) => this.canonical(id), async (batch) => claudeVerifyMany(this.ports.fs, await this.locations(ctx), batch, this.#now));
    } catch {
      // A context whose locations cannot be told verifies nothing.
      return queries.map(() => false);
    }
  }

  /** Every artifact of the canonical id under this context's locations (never rejects). */
  protected async scan(c: string, ctx: HomeDiscoveryContext): Promise<ClaudeArtifactScan> {
    return scanClaudeArtifacts(this.ports.fs, await this.locations(ctx), c);
  }

  /** The conversation's dirs and files across the config and temp roots, job dirs, transcripts, then its session files. */
  protected async artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const s = await this.scan(c, ctx);
    return [...s.items, ...s.jobs, ...s.transcripts, ...s.sessions.map(({ root, path }) => ({ root, path }))];
  }

  /** Store rows naming the id (an unknown store: the purge refuses, see {@link ClaudeAdapter.purgeRefusals}). */
  protected override async dbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    return (await this.scan(id, ctx)).storeRows;
  }

  /** An unknown store naming the id, or a store or job state that cannot be read: the purge removes nothing. */
  protected override async purgeRefusals(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    return (await this.scan(id, ctx)).refusals;
  }

  // Claude keeps nothing open (transcripts are appended and closed): a holder of the transcript, or of an unknown store
  // naming the id, is something this adapter cannot account for, so it counts.
  // The conversation's own dirs (file-history/<id>/, session-env/<id>/, tasks/<id>/, the tmp and project <id>/ dirs) too:
  // a shell cd'd into one (or a file open below it) holds the conversation. Real dirs only, never a link: what a link
  // points at is not the conversation's, and a link to / would make the holder scan walk the whole disk.
  /** The transcripts, the conversation's own dirs, and the sidecars of any unknown store naming the id: Claude keeps nothing open itself. */
  protected override async heldPaths(id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
    const s = await this.scan(id, ctx);
    return [...s.transcripts.map((t) => t.path), ...(await realDirs(this.ports.fs, s.items)), ...s.stores.flatMap((db) => SIDECARS.map((x) => db + x))];
  }

  /** Live session files `sessions/<pid>.json` naming the id whose pid is alive with a matching start. */
  protected override async extraInUse(id: string, ctx: HomeDiscoveryContext, snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> {
    const loc = await this.locations(ctx);
    const files = await sessionFilesNaming(this.ports.fs, resolve(loc.config, 'sessions'), id);
    const procs = byPid(snapshot);
    const now = this.ports.clock.now();
    return files.flatMap((f) => {
      const v = sessionLiveness(f, procs, now);
      return v.kind === 'live' ? [{ pid: v.pid, command: v.proc.command, signal: 'pid-file' as const, detail: f.path }] : [];
    });
  }

  /**
   * The live uses of the conversation (the shared rule plus live pid files), with two Claude Code 2.1.332 facts: after
   * `/clear` in a TUI started with `--resume <id>` the command line still names the old id while the pid file's current
   * `sessionId` names the new one — such a process no longer uses the old id and does not count for it, nor does the
   * launcher whose command line names it (a tmux server) when every Claude process below it is on another id; and a purge run
   * from a Claude tool shell sees `CLAUDE_PID` (the Claude process), whose pid file names the conversation it is on.
   */
  override async inUseHolders(id: string, ctx: HomeDiscoveryContext): Promise<InUseHolder[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const all = await super.inUseHolders(c, ctx);
    const pidVar = this.ports.proc.env()['CLAUDE_PID']?.trim() ?? '';
    if (!all.some((h) => h.signal === 'command-line') && pidVar === '') return all;
    const { config } = await this.locations(ctx);
    const now = this.ports.clock.now();
    const current = (pid: number): Promise<string | null> => currentSessionOf(this.ports.fs, this.ports.proc, config, pid, now);
    const out: InUseHolder[] = [];
    let snapshot: ProcessInfo[] | undefined;
    for (const h of all) {
      const on = h.signal === 'command-line' ? await current(h.pid) : null;
      if (on !== null && on !== c) continue;
      if (on === null && h.signal === 'command-line') {
        // A Claude process itself with no readable pid file counts as before: no second snapshot for it.
        const p = await this.ports.proc.lookup(h.pid).catch(() => null);
        if (p !== null && agentCliName(p) !== 'claude') {
          snapshot ??= await this.ports.proc.snapshot().catch(() => []);
          if (await launcherMovedOn(p, snapshot, c, current)) continue;
        }
      }
      out.push(h);
    }
    if (/^[1-9][0-9]{0,9}$/.test(pidVar) && !out.some((h) => h.pid === Number(pidVar)) && (await current(Number(pidVar))) === c) {
      out.push({ pid: Number(pidVar), command: 'the Claude session this process runs in (CLAUDE_PID)', signal: 'session-env', detail: 'CLAUDE_PID' });
    }
    return out;
  }

  /** A read-only look at the config root: transcripts, the versions that wrote them, session files, unknown stores. Never rejects. */
  async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
    const loc = await this.locations(ctx);
    return inspectClaudeConfig(this.ports.fs, loc).catch((err: unknown) => ({ agent: 'claude' as const, presence: 'present' as const, root: loc.config, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`] }));
  }

  /** Commands to see the holder, naming the real `sessions/` dir first. */
  override inUseHints(id: string, ctx: HomeDiscoveryContext): string[] {
    const c = this.canonical(id) ?? id;
    const own = this.ports.proc.env();
    const home = own['HOME'];
    // Synchronous twin of `env(ctx)`: the caller's own variables only for the caller's own home (compared as paths).
    const env = ctx.env ?? (home !== undefined && home !== '' && resolve(home) === resolve(ctx.home) ? own : {});
    return claudeInUseHints(claudeLocations(env, ctx.home, ctx.workspace).config, c);
  }

  /** Removes items, then job dirs (`state.json` last), then transcripts, then stale session files only once all else is gone; removes nothing when an unknown store names the id. Never throws. */
  override async purgeArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    const fs = this.ports.fs;
    const purged: Artifact[] = [];
    try {
      const s = await this.scan(c, ctx);
      // A layout this adapter does not know names the id: removing the rest would leave a half-purged conversation.
      if (s.refusals.length > 0) return [];
      const items = await removeArtifacts(fs, s.items);
      purged.push(...items.purged);
      let kept = items.residual.length > 0;
      for (const job of s.jobs) {
        await removeDirKeepingLast(fs, job.root, job.path, 'state.json');
        if (await pathExists(fs, job.path)) kept = true;
        else purged.push({ kind: 'dir', path: job.path });
      }
      const transcripts = await removeArtifacts(fs, s.transcripts);
      this.noteRemovalLeft(c, [...items.residual, ...transcripts.residual]);
      purged.push(...transcripts.purged);
      kept ||= transcripts.residual.length > 0;
      if (s.sessions.length > 0 && !kept) {
        // The session file ties a pid to the conversation: it goes last, only once everything else has gone (a retry can
        // still attribute what stays), and only once its process is gone or reused.
        const procs = byPid(await this.ports.proc.snapshot());
        const now = this.ports.clock.now();
        const stale = s.sessions.filter((f) => sessionLiveness(f.file, procs, now).kind === 'stale');
        // The key and the socket a crashed session left beside its pid file go first: the pid file is what ties them to it.
        for (const f of stale) {
          const side = await removeArtifacts(fs, f.companions);
          purged.push(...side.purged);
          if (side.residual.length === 0) purged.push(...(await removeArtifacts(fs, [f])).purged);
        }
      }
    } catch {
      // Never throws: whatever stays is what residualArtifacts reports.
    }
    return purged;
  }

  /** Everything of the conversation still there, store rows naming it, and refusals; a failed scan is reported as one entry. */
  override async residualArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      const s = await this.scan(c, ctx);
      return [...(await leftArtifacts(this.ports.fs, found(s))).map((f) => this.residualEntry(c, f)), ...s.storeRows.map(asLeft), ...s.refusals, ...s.notes];
    } catch (err) {
      return [{ kind: 'dir', path: ctx.home, reason: `claude residual scan failed: ${describeError(err)}` }];
    }
  }

  /** {@inheritDoc AgentAdapter.hasArtifacts} */
  override async hasArtifacts(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      const s = await this.scan(c, ctx);
      return found(s).length + s.storeRows.length > 0;
    } catch {
      return false;
    }
  }

  /** Has the home any artifact of the id (as `hasArtifacts` counts them): the names the id gives first, by lstat; the places only a listing reaches once each, and only when none is there. */
  override async owns(id: string, ctx: HomeDiscoveryContext): Promise<boolean> {
    const c = this.canonical(id);
    if (c === null) return false;
    try {
      return await claudeOwns(this.ports.fs, await this.locations(ctx), c);
    } catch {
      return false;
    }
  }

  /** The config root (`CLAUDE_CONFIG_DIR`, else `<home>/.claude`). */
  protected override async storeRoot(ctx: HomeDiscoveryContext): Promise<string> {
    return (await this.locations(ctx)).config;
  }

  /** Shared files that still name the id (`.claude.json`, its backups, `history.jsonl`); never removed. */
  override async mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> {
    const c = this.canonical(id);
    if (c === null) return [];
    try {
      return (await sharedFilesNaming(this.ports.fs, await this.locations(ctx), c)).map((path) => ({ kind: 'file' as const, path }));
    } catch {
      return [];
    }
  }
}
