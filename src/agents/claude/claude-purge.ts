import { describeError } from '../../errors.js';
import { removeDirKeepingLast } from '../../paths/remove-dir-keeping-last.js';
import type { Ports } from '../../ports/index.js';
import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import { type ArtifactPath, leftArtifacts, pathExists, removeArtifacts } from '../common/artifacts.js';
import { swappedPaths } from '../contract/path-purge.js';
import type { StorePurgeOutcome } from '../contract/agent-store.js';
import type { HomeDiscoveryContext } from '../types.js';
import type { ClaudeArtifactScan } from './artifact-scan.js';
import { byPid, type ClaudeLookups } from './claude-holders.js';
import { sessionLiveness } from './session-liveness.js';

/** Every path of a scan: items, job dirs, transcripts, then each session file after its companions. */
export function foundPaths(scan: ClaudeArtifactScan): ArtifactPath[] {
  return [...scan.items, ...scan.jobs, ...scan.transcripts, ...scan.sessions.flatMap((f) => [...f.companions, f])];
}

/**
 * Removes items, then job dirs (`state.json` last), then transcripts, then stale session files only once all else is
 * gone; removes nothing when an unknown store names the id. Never rejects: what stays is what the residual reports, and
 * the paths a removal found swapped under it are returned with what it removed.
 */
export async function executeClaudePurge(ports: Ports, look: ClaudeLookups, c: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome> {
  const fs = ports.fs;
  const purged: Artifact[] = [];
  let swapped: string[] = [];
  try {
    const s = await look.scan(c, ctx);
    // A layout this store does not know names the id: removing the rest would leave a half-purged conversation.
    if (s.refusals.length > 0) return { removed: [] };
    const items = await removeArtifacts(fs, s.items);
    purged.push(...items.purged);
    let kept = items.residual.length > 0;
    for (const job of s.jobs) {
      await removeDirKeepingLast(fs, job.root, job.path, 'state.json');
      if (await pathExists(fs, job.path)) kept = true;
      else purged.push({ kind: 'dir', path: job.path });
    }
    const transcripts = await removeArtifacts(fs, s.transcripts);
    swapped = swappedPaths([...items.residual, ...transcripts.residual]);
    purged.push(...transcripts.purged);
    kept ||= transcripts.residual.length > 0;
    if (s.sessions.length > 0 && !kept) {
      // The session file ties a pid to the conversation: it goes last, only once everything else has gone (a retry can
      // still attribute what stays), and only once its process is gone or reused.
      const procs = byPid(await ports.proc.snapshot());
      const now = ports.clock.now();
      const stale = s.sessions.filter((f) => sessionLiveness(f.file, procs, now).kind === 'stale');
      // The key and the socket a crashed session left beside its pid file go first: the pid file is what ties them to it.
      for (const f of stale) {
        const side = await removeArtifacts(fs, f.companions);
        purged.push(...side.purged);
        if (side.residual.length === 0) purged.push(...(await removeArtifacts(fs, [f])).purged);
      }
    }
  } catch {
    // Never rejects: whatever stays is what the residual reports.
  }
  return { removed: purged, swapped };
}

/** Everything of the conversation still there, store rows naming it, and refusals; a failed scan is reported as one entry. */
export async function claudeResidual(fs: Ports['fs'], look: ClaudeLookups, c: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
  try {
    const s = await look.scan(c, ctx);
    return [...(await leftArtifacts(fs, foundPaths(s))), ...s.storeRows.map(asLeft), ...s.refusals, ...s.notes];
  } catch (err) {
    return [{ kind: 'dir', path: ctx.home, reason: `claude residual scan failed: ${describeError(err)}` }];
  }
}
