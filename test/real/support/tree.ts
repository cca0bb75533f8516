// A byte-exact picture of a directory tree (type, mode, size, content hash, link target; never following a link), and
// a raw byte search of every file in it — SQLite main files, -wal and -shm included, freed pages and all.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export type Tree = Map<string, string>;

function walk(dir: string, visit: (path: string, kind: 'file' | 'dir' | 'link' | 'other') => void): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names.sort()) {
    const p = join(dir, name);
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) visit(p, 'link');
    else if (st.isDirectory()) {
      visit(p, 'dir');
      walk(p, visit);
    } else if (st.isFile()) visit(p, 'file');
    else visit(p, 'other');
  }
}

export function snapshotTree(root: string): Tree {
  const tree: Tree = new Map();
  walk(root, (p, kind) => {
    try {
      const st = lstatSync(p);
      const mode = (st.mode & 0o7777).toString(8);
      if (kind === 'file') tree.set(p, `file ${mode} ${st.size} ${createHash('sha1').update(readFileSync(p)).digest('hex')}`);
      else if (kind === 'link') tree.set(p, `link ${readlinkSync(p)}`);
      else tree.set(p, `${kind} ${mode}`);
    } catch {
      tree.set(p, 'vanished');
    }
  });
  return tree;
}

export function treeDiff(before: Tree, after: Tree): string[] {
  const out: string[] = [];
  for (const [p, v] of before) if (after.get(p) !== v) out.push(`${p}: ${v} -> ${after.get(p) ?? 'gone'}`);
  for (const [p, v] of after) if (!before.has(p)) out.push(`${p}: new ${v}`);
  return out;
}

/** Every regular file under root whose raw bytes contain the needle (ASCII). */
export function filesContaining(root: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  const hits: string[] = [];
  walk(root, (p, kind) => {
    if (kind !== 'file') return;
    try {
      if (readFileSync(p).includes(bytes)) hits.push(p);
    } catch {
      // vanished while walking
    }
  });
  return hits;
}
