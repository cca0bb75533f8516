import { resolve } from 'node:path';
import type { Ports } from '../../ports/index.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessInfo } from '../../ports/process.js';
import { agentCliName } from '../../process/agent-cli-name.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { findInUseHolders } from '../common/in-use.js';
import type { HomeDiscoveryContext, InUseHolder } from '../types.js';
import type { ClaudeArtifactScan } from './artifact-scan.js';
import type { ClaudeLocations } from './claude-locations.js';
import { launcherMovedOn } from './launcher-moved-on.js';
import { currentSessionOf } from './pid-file.js';
import { sessionFilesNaming } from './session-files.js';
import { sessionLiveness } from './session-liveness.js';

const SIDECARS = ['', '-wal', '-shm', '-journal'] as const;

/** The processes of a snapshot by pid. */
export function byPid(snapshot: readonly ProcessInfo[]): Map<number, ProcessInfo> {
  return new Map(snapshot.map((p) => [p.pid, p] as const));
}

// The paths among `items` that are directories themselves (not links, not files); never rejects.
async function realDirs(fs: FileSystemPort, items: readonly ArtifactPath[]): Promise<string[]> {
  const kinds = await Promise.all(items.map((i) => fs.lstat(i.path).then((st) => st.kind, () => null)));
  return items.filter((_, n) => kinds[n] === 'dir').map((i) => i.path);
}

/** Where Claude keeps things for a context, and every artifact of a canonical id there (what the store opens per call). */
export interface ClaudeLookups {
  /** Claude's locations for the context. */
  locations(ctx: HomeDiscoveryContext): Promise<ClaudeLocations>;
  /** Every artifact of the canonical id under the context's locations. */
  scan(id: string, ctx: HomeDiscoveryContext): Promise<ClaudeArtifactScan>;
}

// Claude keeps nothing open (transcripts are appended and closed): a holder of the transcript, or of an unknown store
// naming the id, is something this store cannot account for, so it counts. The conversation's own dirs
// (file-history/<id>/, session-env/<id>/, tasks/<id>/, the tmp and project <id>/ dirs) too: a shell cd'd into one (or a
// file open below it) holds the conversation. Real dirs only, never a link: what a link points at is not the
// conversation's, and a link to / would make the holder scan walk the whole disk.
async function heldPaths(fs: FileSystemPort, look: ClaudeLookups, id: string, ctx: HomeDiscoveryContext): Promise<string[]> {
  const s = await look.scan(id, ctx);
  return [...s.transcripts.map((t) => t.path), ...(await realDirs(fs, s.items)), ...s.stores.flatMap((db) => SIDECARS.map((x) => db + x))];
}

// Live session files `sessions/<pid>.json` naming the id whose pid is alive with a matching start.
async function pidFileHolders(ports: Ports, look: ClaudeLookups, id: string, ctx: HomeDiscoveryContext, snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> {
  const loc = await look.locations(ctx);
  const files = await sessionFilesNaming(ports.fs, resolve(loc.config, 'sessions'), id);
  const procs = byPid(snapshot);
  const now = ports.clock.now();
  return files.flatMap((f) => {
    const v = sessionLiveness(f, procs, now);
    return v.kind === 'live' ? [{ pid: v.pid, command: v.proc.command, signal: 'pid-file' as const, detail: f.path }] : [];
  });
}

/**
 * The live uses of a (canonical) Claude id (the shared rule plus live pid files), with two Claude Code 2.1.332 facts:
 * after `/clear` in a TUI started with `--resume <id>` the command line still names the old id while the pid file's current
 * `sessionId` names the new one — such a process no longer uses the old id and does not count for it, nor does the
 * launcher whose command line names it (a tmux server) when every Claude process below it is on another id; and a purge
 * run from a Claude tool shell sees `CLAUDE_PID` (the Claude process), whose pid file names the conversation it is on.
 */
export async function claudeHolders(ports: Ports, look: ClaudeLookups, c: string, ctx: HomeDiscoveryContext, sessionEnvVars: readonly string[]): Promise<InUseHolder[]> {
  const all = await findInUseHolders(ports.proc, {
    agent: 'claude',
    sessionEnvVars,
    id: c,
    heldPaths: await heldPaths(ports.fs, look, c, ctx),
    extra: (snapshot) => pidFileHolders(ports, look, c, ctx, snapshot),
  });
  const pidVar = ports.proc.env()['CLAUDE_PID']?.trim() ?? '';
  if (!all.some((h) => h.signal === 'command-line') && pidVar === '') return all;
  const { config } = await look.locations(ctx);
  const now = ports.clock.now();
  const current = (pid: number): Promise<string | null> => currentSessionOf(ports.fs, ports.proc, config, pid, now);
  const out: InUseHolder[] = [];
  let snapshot: ProcessInfo[] | undefined;
  for (const h of all) {
    const on = h.signal === 'command-line' ? await current(h.pid) : null;
    if (on !== null && on !== c) continue;
    if (on === null && h.signal === 'command-line') {
      // A Claude process itself with no readable pid file counts as before: no second snapshot for it.
      const p = await ports.proc.lookup(h.pid).catch(() => null);
      if (p !== null && agentCliName(p) !== 'claude') {
        snapshot ??= await ports.proc.snapshot().catch(() => []);
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
