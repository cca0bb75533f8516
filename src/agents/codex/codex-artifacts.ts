import { join, normalize } from 'node:path';
import { isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { isInside } from '../../paths/is-inside.js';
import type { ArtifactPath } from '../common/artifacts.js';
import type { CodexHome } from './codex-home.js';
import { rolloutNameId } from './rollout-name.js';
import { isSnapshotOf } from './snapshot-name.js';
import { scanRollouts } from './rollout-scan.js';

/**
 * A conversation's own files in removal order — rollouts, shell snapshots, the writer lock last — and the directories
 * that could not be listed (so a search may have missed something).
 * @public
 */
export interface CodexArtifacts {
  rollouts: ArtifactPath[];
  snapshots: ArtifactPath[];
  lock: ArtifactPath;
  unreadable: string[];
}

// A rollout the state DB names keeps the rollout root it lies in; anywhere else the home is its root (outside it, never removed).
function rootOf(home: CodexHome, path: string): string {
  if (isInside(home.sessions, path) && path !== home.sessions) return home.sessions;
  if (isInside(home.archived, path) && path !== home.archived) return home.archived;
  return home.home;
}

async function snapshotsOf(fs: FileSystemPort, home: CodexHome, id: string, unreadable: string[]): Promise<ArtifactPath[]> {
  try {
    const names = (await fs.readdir(home.snapshots)).map((e) => e.name).filter((n) => isSnapshotOf(n, id));
    return names.sort().map((n) => ({ root: home.home, path: join(home.snapshots, n) }));
  } catch (err) {
    if (!isPortError(err, 'NotFound')) unreadable.push(home.snapshots);
    return [];
  }
}

/**
 * Every file of the canonical id: rollouts found by name under both rollout roots plus any the state DB records (only
 * when its name carries the id), the shell snapshots `<id>.*` (they hold the environment's secrets), and
 * `thread-writer-locks/<id>.lock`. Paths are candidates: the caller checks what exists.
 * @public
 */
export async function codexArtifacts(fs: FileSystemPort, home: CodexHome, id: string, recorded: readonly string[]): Promise<CodexArtifacts> {
  const scan = await scanRollouts(fs, home, id);
  const rollouts: ArtifactPath[] = scan.files.map((f) => ({ root: f.root, path: f.path }));
  const seen = new Set(rollouts.map((r) => r.path));
  for (const p of recorded) {
    if (p.includes('\0') || !p.startsWith('/') || rolloutNameId(p) !== id) continue;
    const path = normalize(p);
    if (!seen.has(path)) (seen.add(path), rollouts.push({ root: rootOf(home, path), path }));
  }
  const unreadable = [...scan.unreadable];
  const snapshots = await snapshotsOf(fs, home, id, unreadable);
  return { rollouts, snapshots, lock: { root: home.home, path: join(home.locks, `${id}.lock`) }, unreadable };
}
