import { join } from 'node:path';
import type { DirEntry, FileSystemPort } from '../../ports/fs.js';
import { type AgyPaths, agyKnownNames } from './agy-paths.js';

/**
 * The suffix residual puts on an entry of a layout this adapter does not know.
 * @public
 */
export const AGY_UNKNOWN_LAYOUT = 'unknown layout: refusing to purge';

async function entries(fs: FileSystemPort, dir: string): Promise<DirEntry[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}

async function sameFile(fs: FileSystemPort, a: string, b: string): Promise<boolean> {
  try {
    const [sa, sb] = await Promise.all([fs.lstat(a), fs.lstat(b)]);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

/**
 * An entry under an agy root that names a conversation and is not understood, with the reason a person reads.
 * @public
 */
export interface AgyUnknownEntry {
  /** The entry's path. */
  path: string;
  /** Why it is refused. */
  reason: string;
}

// What a known name must be: a brain entry a directory, anything else a file; a leaf link is removed as the link alone.
function kindRefusal(dirName: string, entry: DirEntry): string | null {
  if (entry.kind === 'symlink') return null;
  if (entry.kind === 'other') return 'not a regular file: refusing to purge';
  const wantDir = dirName === 'brain';
  if (wantDir && entry.kind !== 'dir') return AGY_UNKNOWN_LAYOUT;
  if (!wantDir && entry.kind === 'dir') return AGY_UNKNOWN_LAYOUT;
  return null;
}

// A known name in another case is the known file only on a case-insensitive filesystem (same inode); on a case-sensitive
// one it is a second file the purge would not reach.
async function refusalOf(fs: FileSystemPort, dir: string, dirName: string, entry: DirEntry, known: readonly string[]): Promise<string | null> {
  if (known.includes(entry.name)) return kindRefusal(dirName, entry);
  const twin = known.find((k) => k.toLowerCase() === entry.name.toLowerCase());
  return twin !== undefined && (await sameFile(fs, join(dir, entry.name), join(dir, twin))) ? null : AGY_UNKNOWN_LAYOUT;
}

async function unknownUnder(fs: FileSystemPort, root: string, id: string, acp: boolean, out: AgyUnknownEntry[]): Promise<void> {
  for (const top of await entries(fs, root)) {
    const dir = join(root, top.name);
    if (top.name.toLowerCase().includes(id)) {
      out.push({ path: dir, reason: AGY_UNKNOWN_LAYOUT });
      continue;
    }
    if (top.kind !== 'dir') continue;
    const known = agyKnownNames(top.name, id, acp);
    for (const entry of await entries(fs, dir)) {
      if (!entry.name.toLowerCase().includes(id)) continue;
      const reason = await refusalOf(fs, dir, top.name, entry, known);
      if (reason !== null) out.push({ path: join(dir, entry.name), reason });
    }
  }
}

/**
 * Entries under the agy CLI and ACP roots that name the conversation but are not one of its known artifacts (an unknown
 * top-level entry, an unknown name in a known or unknown directory, a known name of the wrong kind — a directory where
 * a file belongs, a FIFO or device): a CLI version this adapter does not know, whose purge would be partial. Links are
 * not followed. Never throws.
 * @public
 */
export async function agyUnknownEntries(fs: FileSystemPort, p: AgyPaths, id: string): Promise<AgyUnknownEntry[]> {
  const out: AgyUnknownEntry[] = [];
  await unknownUnder(fs, p.root, id, false, out);
  await unknownUnder(fs, p.acpRoot, id, true, out);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
