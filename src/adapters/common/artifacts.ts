import type { FileSystemPort } from '../../ports/fs.js';
import { type RemovalLeft, removeConfined } from '../../paths/remove-confined.js';

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
  /** The artifact paths removed (a directory counts once). */
  purged: string[];
  /** What should have gone and stays (a linked path not followed, a failed removal). */
  residual: string[];
  /** The residual paths a removal left, each with its reason (e.g. a directory swapped during removal). */
  left: RemovalLeft[];
}

/**
 * True when the path exists as anything, a dangling link included (links in the middle are followed: remains behind a
 * linked dir count as artifacts).
 * @public
 */
export async function pathExists(fs: FileSystemPort, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
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
 * Removes the artifacts one after another, in order (the caller orders key files before the file that ties them to the
 * conversation); reports only what existed. With `stopOnFailure`, stops at the first that cannot go and leaves the rest,
 * for layouts where a later item is what finds the earlier ones (so a rerun can still find and finish them). Never throws.
 * @public
 */
export async function removeArtifacts(fs: FileSystemPort, items: readonly ArtifactPath[], opts: { stopOnFailure?: boolean } = {}): Promise<PurgeReport> {
  const report: PurgeReport = { purged: [], residual: [], left: [] };
  for (const [n, item] of items.entries()) {
    if (!(await pathExists(fs, item.path))) continue;
    const done = await removeConfined(fs, item.root, item.path);
    if (done.removed.includes(item.path) && !(await pathExists(fs, item.path))) {
      report.purged.push(item.path);
      continue;
    }
    report.residual.push(...(done.residual.length > 0 ? done.residual : [item.path]));
    report.left.push(...done.left);
    if (opts.stopOnFailure !== true) continue;
    for (const rest of items.slice(n + 1)) if (await pathExists(fs, rest.path)) report.residual.push(rest.path);
    break;
  }
  return report;
}
