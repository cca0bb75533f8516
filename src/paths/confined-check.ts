import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { isPortError } from '../errors.js';
import type { FileKind, FileStat, FileSystemPort } from '../ports/fs.js';
import { isInside } from './is-inside.js';
import { checkConfined } from '../validation/low-level-args.js';
import { lstatOrNull } from './lstat-or-null.js';

/**
 * Whether a candidate may be removed under a root:
 * - `ok`: every component between the root and the leaf's parent is a real directory and the parent resolves inside the resolved root; `path` is the normalized candidate, `leaf` what it is (a `symlink` leaf is the link itself);
 * - `behind-link`: `link` is a component between the root and the leaf that is a symbolic link (never followed);
 * - `outside`: the candidate is the root itself, is not below it, or resolves outside it;
 * - `missing`: the candidate (or a component on its way) does not exist.
 * @public
 */
export type ConfinedCheck =
  | { kind: 'ok'; path: string; leaf: FileKind }
  | { kind: 'behind-link'; link: string }
  | { kind: 'outside' }
  | { kind: 'missing' };

function trimSep(p: string): string {
  return p.length > 1 && p.endsWith(sep) ? p.slice(0, -1) : p;
}

function isAbsent(err: unknown): boolean {
  return isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory');
}


async function realpathOrNull(fs: FileSystemPort, path: string): Promise<string | null> {
  try {
    return await fs.realpath(path);
  } catch (err) {
    if (isAbsent(err)) return null;
    throw err;
  }
}

/**
 * Decides, by walking the components with lstat (never following a link below the root), whether `candidate` is confined to `root`; rejects with a {@link PortError} on an unexpected failure (e.g. `PermissionDenied`).
 * @public
 */
export async function confinedCheck(fs: FileSystemPort, root: string, candidate: string): Promise<ConfinedCheck> {
  checkConfined([fs, root, candidate]);
  if (!isAbsolute(root) || !isAbsolute(candidate) || root.includes('\0') || candidate.includes('\0')) return { kind: 'outside' };
  const r = trimSep(normalize(root));
  // `..` is resolved lexically here; every later call uses this normalized path, and that is the path the walk verifies.
  const c = trimSep(normalize(candidate));
  if (c === r || !isInside(r, c)) return { kind: 'outside' };
  const realRoot = await realpathOrNull(fs, r);
  if (realRoot === null) return { kind: 'missing' };
  const parts = c.slice(r.endsWith(sep) ? r.length : r.length + 1).split(sep);
  let cur = r;
  for (const part of parts.slice(0, -1)) {
    cur = join(cur, part);
    const st = await lstatOrNull(fs, cur);
    if (st === null) return { kind: 'missing' };
    if (st.kind === 'symlink') return { kind: 'behind-link', link: cur };
    if (st.kind !== 'dir') return { kind: 'missing' };
  }
  const realParent = await realpathOrNull(fs, dirname(c));
  if (realParent === null) return { kind: 'missing' };
  if (!isInside(realRoot, realParent)) return { kind: 'outside' };
  const leaf = await lstatOrNull(fs, c);
  if (leaf === null) return { kind: 'missing' };
  return { kind: 'ok', path: c, leaf: leaf.kind };
}
