// Every entry under a directory with its kind, size, mtime and inode (links not followed): equal before and after an
// operation that changed nothing.
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Sorted `rel kind size mtime ino` lines for every entry under `dir`. */
export function treeSnapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = lstatSync(p);
      const kind = s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : 'file';
      out.push(`${relative(dir, p)} ${kind} size=${kind === 'dir' ? '-' : s.size} mtime=${s.mtimeMs} ino=${s.ino}`);
      if (kind === 'dir') walk(p);
    }
  };
  walk(dir);
  return out.sort();
}
