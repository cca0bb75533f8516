import type { FileKind, FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import { removeConfined } from '../../paths/remove-confined.js';
import { type Artifact, type LeftArtifact, type PathArtifact, STILL_ON_DISK } from '../../purge/artifact.js';

/**
 * One artifact path of a conversation and the agent root it was found under (removal never leaves that root).
 * @public
 */
export interface ArtifactPath {
  /** The agent root it was found under (config, projects, tmp or data dir); removal stays inside it. */
  root: string;
  /** The artifact's absolute path. */
  path: string;
}

/**
 * What a purge of a list of artifacts did.
 * @public
 */
export interface PurgeReport {
  /** The artifacts removed (a directory counts once), each of the kind its lstat gave before removal. */
  purged: Artifact[];
  /** What should have gone and stays (a linked path not followed, a failed removal), with the reason. */
  residual: LeftArtifact[];
}

/** Why a path that should have gone is still there after a removal. */
const NOT_REMOVED = 'not removed (behind a link, outside its root, or the removal failed)';

/**
 * The artifact kind of an lstat kind: a symbolic link is a `link` (never followed), anything not a dir or link a `file`.
 * @public
 */
export function artifactKind(kind: FileKind): PathArtifact['kind'] {
  return kind === 'symlink' ? 'link' : kind === 'dir' ? 'dir' : 'file';
}

/**
 * The path as an artifact of the kind its lstat gives, or null when nothing is there (links are not followed).
 * @public
 */
export async function pathArtifact(fs: FileSystemPort, path: string): Promise<PathArtifact | null> {
  try {
    return { kind: artifactKind((await fs.lstat(path)).kind), path };
  } catch {
    return null;
  }
}

/**
 * True when the path exists as anything, a dangling link included (links in the middle are followed: remains behind a
 * linked dir count as artifacts).
 * @public
 */
export async function pathExists(fs: FileSystemPort, path: string): Promise<boolean> {
  return (await pathArtifact(fs, path)) !== null;
}

/**
 * The artifacts that exist, in the given order.
 * @public
 */
export async function existingArtifacts(fs: FileSystemPort, items: readonly ArtifactPath[]): Promise<ArtifactPath[]> {
  const flags = await Promise.all(items.map((i) => pathExists(fs, i.path)));
  return items.filter((_, n) => flags[n] === true);
}

/**
 * The artifacts that exist, in the given order, as records of their kind.
 * @public
 */
export async function presentArtifacts(fs: FileSystemPort, items: readonly ArtifactPath[]): Promise<PathArtifact[]> {
  const found = await Promise.all(items.map((i) => pathArtifact(fs, i.path)));
  return found.filter((a): a is PathArtifact => a !== null);
}

/**
 * The artifacts still there, each as left with {@link STILL_ON_DISK} (the residual of a purge).
 * @public
 */
export async function leftArtifacts(fs: FileSystemPort, items: readonly ArtifactPath[]): Promise<LeftArtifact[]> {
  return (await presentArtifacts(fs, items)).map((a) => ({ ...a, reason: STILL_ON_DISK }));
}

async function leftAt(fs: FileSystemPort, path: string, reason: string): Promise<LeftArtifact> {
  return { ...((await pathArtifact(fs, path)) ?? { kind: 'file' as const, path }), reason };
}

/**
 * Removes the artifacts one after another, in order (the caller orders key files before the file that ties them to the
 * conversation); reports only what existed, each removed path of the kind its lstat gave before removal. With
 * `stopOnFailure`, stops at the first that cannot go and leaves the rest, for layouts where a later item is what finds
 * the earlier ones (so a rerun can still find and finish them). Never throws.
 * @public
 */
export async function removeArtifacts(fs: FileSystemPort, items: readonly ArtifactPath[], opts: { stopOnFailure?: boolean } = {}): Promise<PurgeReport> {
  const report: PurgeReport = { purged: [], residual: [] };
  for (const [n, item] of items.entries()) {
    const before = await pathArtifact(fs, item.path);
    if (before === null) continue;
    const done = await removeConfined(fs, item.root, item.path);
    if (done.removed.includes(item.path) && !(await pathExists(fs, item.path))) {
      report.purged.push(before);
      continue;
    }
    for (const p of done.residual.length > 0 ? done.residual : [item.path]) report.residual.push(await leftAt(fs, p, done.left.find((l) => l.path === p)?.reason ?? NOT_REMOVED));
    if (opts.stopOnFailure !== true) continue;
    for (const rest of items.slice(n + 1)) {
      const a = await pathArtifact(fs, rest.path);
      if (a !== null) report.residual.push({ ...a, reason: 'not removed: an earlier artifact that finds it could not go' });
    }
    break;
  }
  return report;
}

/**
 * What a removal of the artifact paths would do, found without changing anything: the paths it would remove (of their
 * lstat kind) and those it would refuse (behind a linked dir, outside the root), with the reason.
 * @public
 */
export async function planArtifactPaths(fs: FileSystemPort, items: readonly ArtifactPath[]): Promise<{ artifacts: PathArtifact[]; refused: LeftArtifact[] }> {
  const out = { artifacts: [] as PathArtifact[], refused: [] as LeftArtifact[] };
  for (const item of items) {
    const present = await pathArtifact(fs, item.path);
    if (present === null) continue;
    const check = await confinedCheck(fs, item.root, item.path).catch(() => ({ kind: 'outside' as const }));
    switch (check.kind) {
      case 'ok':
        out.artifacts.push({ kind: artifactKind(check.leaf), path: item.path });
        break;
      case 'behind-link':
        out.refused.push({ ...present, reason: `behind the link ${check.link}: not followed` });
        break;
      case 'outside':
        out.refused.push({ ...present, reason: `outside its agent root ${item.root}: not removed` });
        break;
      case 'missing':
        break;
      default: {
        const never: never = check;
        return never;
      }
    }
  }
  return out;
}
