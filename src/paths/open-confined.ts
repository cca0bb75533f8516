import { isAbsolute, join, normalize, sep } from 'node:path';
import { isPortError } from '../errors.js';
import type { DirHandle, FileStat, FileSystemPort } from '../ports/fs.js';
import { isInside } from './is-inside.js';
import { REMOVAL_REASONS } from './removal-reasons.js';

/**
 * Where an fd-anchored walk from a root to a candidate ended: `ok` holds the candidate's parent directory open (the
 * caller closes it), with the leaf's name, normalized path and lstat; `left` says why nothing may be touched.
 */
export type ConfinedParent =
  | { kind: 'ok'; parent: DirHandle; name: string; path: string; leaf: FileStat }
  | { kind: 'missing' }
  | { kind: 'left'; reason: string };

function trimSep(p: string): string {
  return p.length > 1 && p.endsWith(sep) ? p.slice(0, -1) : p;
}

function isAbsent(err: unknown): boolean {
  return isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory');
}

/** True when a handle call failed because what it stood on changed (a link where a directory was, or `Changed`). */
export function isSwap(err: unknown): boolean {
  return isPortError(err, 'NotADirectory') || isPortError(err, 'Changed');
}

/** True when two stats name the same file (device and inode). */
export function sameFile(a: FileStat, b: FileStat): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Opens the directory `name` of `parent` and checks it is the one `seen` (its lstat) described; the handle, or why not
 * (`missing` when the entry went away, a reason when it was swapped).
 */
export async function openChecked(parent: DirHandle, name: string, seen: FileStat): Promise<DirHandle | 'missing' | { reason: string }> {
  let child: DirHandle;
  try {
    child = await parent.openDir(name);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return 'missing';
    return { reason: isSwap(err) ? REMOVAL_REASONS.swapped : err instanceof Error ? err.message : String(err) };
  }
  const st = await child.stat().catch(() => null);
  if (st !== null && sameFile(st, seen)) return child;
  await child.close();
  return { reason: REMOVAL_REASONS.swapped };
}

/**
 * Opens the root once (it may be reached through a link the user set up, e.g. a symlinked home), then
 * descends one component at a time relative to the directory already open, never following a link and checking that
 * each directory opened is the one listed; rejects only on an unexpected failure of the root itself.
 */
export async function openConfinedParent(fs: FileSystemPort, root: string, candidate: string): Promise<ConfinedParent> {
  if (!isAbsolute(root) || !isAbsolute(candidate) || root.includes('\0') || candidate.includes('\0')) return { kind: 'left', reason: REMOVAL_REASONS.outside };
  const r = trimSep(normalize(root));
  // `..` is resolved lexically; the walk below verifies the normalized path, one opened directory at a time.
  const c = trimSep(normalize(candidate));
  if (c === r || !isInside(r, c)) return { kind: 'left', reason: REMOVAL_REASONS.outside };
  try {
    await fs.realpath(r);
  } catch (err) {
    if (isAbsent(err)) return { kind: 'missing' };
    throw err;
  }
  let dir: DirHandle;
  try {
    // `<root>/.`: the root itself may be reached through a link the user set up (a symlinked home) and is resolved by
    // this one open; everything below it is anchored to the directory opened. Paths reported stay under `root` as given.
    dir = await fs.openDir(`${r}${r.endsWith(sep) ? '' : sep}.`);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return { kind: 'missing' };
    if (isSwap(err)) return { kind: 'left', reason: REMOVAL_REASONS.swapped };
    throw err;
  }
  const parts = c.slice(r.endsWith(sep) ? r.length : r.length + 1).split(sep);
  let path = r;
  let handed = false;
  try {
    for (const part of parts.slice(0, -1)) {
      path = join(path, part);
      const st = await dir.lstat(part).catch((err: unknown) => (isAbsent(err) ? null : Promise.reject(err)));
      if (st === null || (st.kind !== 'dir' && st.kind !== 'symlink')) return { kind: 'missing' };
      if (st.kind === 'symlink') return { kind: 'left', reason: REMOVAL_REASONS.behindLink };
      const next = await openChecked(dir, part, st);
      if (next === 'missing') return { kind: 'missing' };
      if ('reason' in next) return { kind: 'left', reason: next.reason };
      await dir.close();
      dir = next;
    }
    const name = parts.at(-1) as string;
    const leaf = await dir.lstat(name).catch((err: unknown) => (isAbsent(err) ? null : Promise.reject(err)));
    if (leaf === null) return { kind: 'missing' };
    handed = true;
    return { kind: 'ok', parent: dir, name, path: c, leaf };
  } catch (err) {
    if (isSwap(err)) return { kind: 'left', reason: REMOVAL_REASONS.swapped };
    throw err;
  } finally {
    // On every way out but `ok` (which hands the parent over), the directory still open is closed here.
    if (!handed) await dir.close();
  }
}
