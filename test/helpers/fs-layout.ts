import * as nfs from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A layout entry: file content, a directory, or a symlink target. */
export type LayoutEntry = string | { dir: true } | { link: string };

/** Lays `entries` (relative paths, parents created as dirs) out under `base`. */
export async function layout(base: string, entries: Record<string, LayoutEntry>): Promise<void> {
  for (const [rel, entry] of Object.entries(entries)) {
    const path = join(base, rel);
    await nfs.mkdir(dirname(path), { recursive: true });
    if (typeof entry === 'string') await nfs.writeFile(path, entry);
    else if ('dir' in entry) await nfs.mkdir(path, { recursive: true });
    else await nfs.symlink(entry.link, path);
  }
}

/** Every path below `base` (relative, sorted), with `/` after a dir and `@target` after a link. */
export async function listTree(base: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    for (const e of await nfs.readdir(join(base, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isSymbolicLink()) out.push(`${r}@${await nfs.readlink(join(base, r))}`);
      else if (e.isDirectory()) {
        out.push(`${r}/`);
        await walk(r);
      } else out.push(r);
    }
  }
  await walk('');
  return out.sort();
}
