import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import type { DirectoryMatcher } from '../common/same-directory.js';
import { decodeGrokBucket } from './grok-encode.js';
import type { GrokClock, GrokParentStamp, GrokPlainCwds } from './grok-plain-cwds.js';
import { grokBucketCwdFile } from './grok-bucket-cwd-file.js';
import { listDirOrNull } from '../common/read-regular.js';

/** `.cwd` reads in flight at once. */
const READS = 32;

/**
 * One bucket dir under `sessions/` and the cwd it stands for.
 * @public
 */
export interface GrokBucketCwd {
  /** The bucket dir. */
  bucket: string;
  /** Its cwd: the URL-decoded name, else its `.cwd` text. */
  cwd: string;
}

/**
 * Every bucket dir of `sessions/` (one listing; links and dot names skipped, as grok skips them) with its cwd, sorted by
 * path; `now` lets a hashed bucket's `.cwd` be remembered ({@link grokBucketCwdFile}). Never throws.
 * @public
 */
export async function grokBucketCwds(fs: FileSystemPort, sessionsDir: string, now?: GrokClock): Promise<GrokBucketCwd[]> {
  const entries = (await listDirOrNull(fs, sessionsDir)) ?? [];
  const out: GrokBucketCwd[] = [];
  const hashed: string[] = [];
  for (const e of entries) {
    if (e.kind !== 'dir' || e.name.startsWith('.')) continue;
    const cwd = decodeGrokBucket(e.name);
    if (cwd !== null) out.push({ bucket: join(sessionsDir, e.name), cwd });
    else hashed.push(e.name);
  }
  const read = await mapLimit(hashed, READS, async (name) => {
    const bucket = join(sessionsDir, name);
    const cwd = await grokBucketCwdFile(fs, bucket, now);
    return cwd === null ? null : { bucket, cwd };
  });
  for (const b of read) if (b !== null) out.push(b);
  return out.sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
}

/**
 * A workspace as one call compares recorded cwds with it (by realpath: grok records the cwd its process saw, a
 * symlink-free path, which may not be how the workspace was given) — the rule of `directoryMatcher`.
 * @public
 */
export interface GrokWorkspaceMatch {
  /** The matcher for the sessions' own `info.cwd`. */
  here: DirectoryMatcher;
  /** The workspace as given, resolved. */
  given: string;
  /** Its realpath (the given path when it has none). */
  real: string;
  /** What this call knows of plain bucket cwds. */
  plain: GrokPlainCwds;
}

async function realOrNull(fs: FileSystemPort, path: string): Promise<string | null> {
  try {
    return await fs.realpath(path);
  } catch {
    return null;
  }
}

/**
 * Builds the {@link GrokWorkspaceMatch} of a workspace for one call. A workspace {@link GrokPlainCwds} knows to be plain
 * (under the stamp its parent shows now, the parent looked at once per call with the buckets' parents) is its own
 * realpath, so it needs no `realpath`; one resolved plain is remembered so. Never throws.
 * @public
 */
export async function grokWorkspaceMatch(fs: FileSystemPort, workspace: string, plain: GrokPlainCwds): Promise<GrokWorkspaceMatch> {
  const given = isAbsolute(workspace) ? resolve(workspace) : workspace;
  let real: string;
  if (plain.enabled && isAbsolute(given) && dirname(given) !== given) {
    const stamp = await plain.parent(dirname(given));
    if (plain.known(given, stamp)) real = given;
    else {
      const r = await realOrNull(fs, given);
      real = r ?? given;
      await plain.remember(given, r, stamp).catch(() => undefined);
    }
  } else real = (await realOrNull(fs, given)) ?? given;
  return { here: sameDirectory(fs, given, real), given, real, plain };
}

/**
 * The rule of `directoryMatcher` (common/same-directory.ts) on a workspace this call has already resolved (`given`, and `real`, its realpath
 * or `given`): a recorded dir is the workspace when it is spelled as either or resolves to `real` (each distinct one
 * resolved once).
 * @public
 */
export function sameDirectory(fs: FileSystemPort, given: string, real: string): DirectoryMatcher {
  const resolved = new Map<string, Promise<string | null>>();
  return {
    async matches(recorded: string): Promise<boolean> {
      if (typeof recorded !== 'string' || !isAbsolute(recorded) || recorded.includes('\0')) return false;
      const path = resolve(recorded);
      if (path === given || path === real) return true;
      let r = resolved.get(path);
      if (r === undefined) resolved.set(path, (r = realOrNull(fs, path)));
      return (await r) === real;
    },
  };
}

/**
 * The bucket dirs under `sessions/` whose cwd is the workspace: spelled as it (given or real), or resolving to it. A cwd
 * {@link GrokPlainCwds} knows to be plain resolves to itself, so its spelling answers; the others are resolved (and
 * remembered when plain) — where buckets share a parent dir, one `realpath` and one `lstat` of it stand for all their
 * realpaths; a cwd alone under its parent is resolved at once (one realpath is cheaper than the parent's two looks).
 * Never throws.
 * @public
 */
export async function grokWorkspaceBuckets(fs: FileSystemPort, buckets: readonly GrokBucketCwd[], match: GrokWorkspaceMatch): Promise<string[]> {
  const groups = new Map<string, Array<{ bucket: string; path: string }>>();
  for (const b of buckets) {
    if (typeof b.cwd !== 'string' || !isAbsolute(b.cwd) || b.cwd.includes('\0')) continue;
    const path = resolve(b.cwd);
    const parent = dirname(path);
    const g = groups.get(parent);
    if (g === undefined) groups.set(parent, [{ bucket: b.bucket, path }]);
    else g.push({ bucket: b.bucket, path });
  }
  const out: string[] = [];
  const resolving: Array<Promise<void>> = [];
  const resolveOne = async (b: { bucket: string; path: string }, stamp: GrokParentStamp | null): Promise<void> => {
    const real = await realOrNull(fs, b.path);
    if (real === match.real) out.push(b.bucket);
    if (stamp !== null) await match.plain.remember(b.path, real, stamp).catch(() => undefined);
  };
  await Promise.all(
    [...groups].map(async ([parent, group]) => {
      const stamp = group.length > 1 && match.plain.enabled ? await match.plain.parent(parent) : null;
      for (const b of group) {
        if (b.path === match.given || b.path === match.real) out.push(b.bucket);
        else if (stamp === null || !match.plain.known(b.path, stamp)) resolving.push(resolveOne(b, stamp));
      }
    }),
  );
  await Promise.all(resolving);
  return out.sort();
}
