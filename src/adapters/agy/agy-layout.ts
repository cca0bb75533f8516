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

// A known name in another case is the known file only on a case-insensitive filesystem (same inode); on a case-sensitive
// one it is a second file the purge would not reach.
async function isKnown(fs: FileSystemPort, dir: string, entry: DirEntry, known: readonly string[]): Promise<boolean> {
  if (known.includes(entry.name)) return !(entry.kind === 'dir' && entry.name.endsWith('.db'));
  const twin = known.find((k) => k.toLowerCase() === entry.name.toLowerCase());
  return twin !== undefined && (await sameFile(fs, join(dir, entry.name), join(dir, twin)));
}

/**
 * Entries under the agy root that name the conversation but are not one of its known artifacts (an unknown top-level
 * entry, an unknown name in a known or unknown directory, a conversation "database" that is a directory): a CLI version
 * this adapter does not know, whose purge would be partial. Links are not followed. Never throws.
 * @public
 */
export async function agyUnknownEntries(fs: FileSystemPort, p: AgyPaths, id: string): Promise<string[]> {
  const out: string[] = [];
  for (const top of await entries(fs, p.root)) {
    const dir = join(p.root, top.name);
    if (top.name.toLowerCase().includes(id)) {
      out.push(dir);
      continue;
    }
    if (top.kind !== 'dir') continue;
    const known = agyKnownNames(top.name, id);
    for (const entry of await entries(fs, dir)) {
      if (!entry.name.toLowerCase().includes(id)) continue;
      if (!(await isKnown(fs, dir, entry, known))) out.push(join(dir, entry.name));
    }
  }
  return out.sort();
}
