import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/index.js';

/** Sorted `path kind size mtime sha256` lines for `dir` and everything under it (links not followed), read through `fs`. */
export async function treeSnapshot(fs: FileSystemPort, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const st = await fs.lstat(path);
    let content = '-';
    if (st.kind === 'file') content = createHash('sha256').update(await fs.readFile(path)).digest('hex');
    else if (st.kind === 'symlink') content = `-> ${await fs.readlink(path)}`;
    out.push(`${path} ${st.kind} size=${st.kind === 'dir' ? '-' : st.size} mtime=${st.mtimeMs} ${content}`);
    if (st.kind !== 'dir') return;
    for (const e of await fs.readdir(path)) await walk(join(path, e.name));
  };
  await walk(dir);
  return out.sort();
}

/** The lines of two snapshots that differ (`- before`, `+ after`), at most `max` of them. */
export function snapshotDiff(before: readonly string[], after: readonly string[], max = 6): string[] {
  const a = new Set(after);
  const b = new Set(before);
  const diff = [...before.filter((l) => !a.has(l)).map((l) => `- ${l}`), ...after.filter((l) => !b.has(l)).map((l) => `+ ${l}`)];
  return diff.length > max ? [...diff.slice(0, max), `… ${diff.length - max} more`] : diff;
}
