import { realpath, stat } from 'node:fs/promises';
import { isInside } from '../paths/is-inside.js';
import type { FileHolder } from '../ports/process.js';
import { unescapeLsofName, type LsofEntry } from './lsof-parse.js';

/**
 * The asked paths that exist, keyed by their resolved real path (what lsof and `/proc/<pid>/fd` report).
 * @public
 */
export async function resolveHolderTargets(paths: readonly string[]): Promise<Map<string, string[]>> {
  const targets = new Map<string, string[]>();
  for (const asked of new Set(paths)) {
    let real: string;
    try {
      real = await realpath(asked);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      // Cannot resolve (e.g. EACCES on a parent): still ask about it as given.
      real = asked;
    }
    targets.set(real, [...(targets.get(real) ?? []), asked]);
  }
  return targets;
}

/**
 * The resolved targets that are directories: a process holds one when its cwd or an open file lies in it or below.
 * @public
 */
export async function directoryTargets(targets: ReadonlyMap<string, readonly string[]>): Promise<string[]> {
  const reals = [...targets.keys()];
  const dirs = await Promise.all(reals.map((r) => stat(r).then((s) => s.isDirectory(), () => false)));
  return reals.filter((_, i) => dirs[i] === true);
}

function candidatesOf(name: string): string[] {
  const decoded = unescapeLsofName(name);
  // lsof appends notes such as ` (deleted)` or an NFS ` (host:/export)` to a name.
  const bare = (s: string): string => s.replace(/ \([^()]*\)$/, '');
  return [...new Set([name, decoded, bare(name), bare(decoded)])];
}

/**
 * Maps lsof entries back onto the asked paths: one holder per (pid, asked path), sorted by pid; names nobody asked about are dropped.
 * @public
 */
export function matchHolders(entries: readonly LsofEntry[], targets: ReadonlyMap<string, readonly string[]>, dirs: readonly string[] = []): FileHolder[] {
  const byAsked = new Map<string, string>();
  for (const [real, asked] of targets) for (const a of asked) byAsked.set(a, real);
  const seen = new Set<string>();
  const out: FileHolder[] = [];
  for (const e of entries) {
    const names = candidatesOf(e.name);
    // A name below a directory target (a cwd, a file open inside it) holds that directory.
    const hit = names.find((c) => targets.has(c) || byAsked.has(c)) ?? dirs.find((d) => names.some((c) => isInside(d, c)));
    if (hit === undefined) continue;
    const asked = targets.get(targets.has(hit) ? hit : (byAsked.get(hit) ?? hit)) ?? [hit];
    for (const path of asked) {
      const key = `${e.pid}\0${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ pid: e.pid, command: e.command, path });
    }
  }
  return out.sort((a, b) => a.pid - b.pid);
}
