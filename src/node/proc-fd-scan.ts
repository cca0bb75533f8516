import { readdir, readFile, readlink } from 'node:fs/promises';
import type { LsofEntry } from './lsof-parse.js';
import { mapLimit } from '../map-limit.js';
import { listProcPids } from './proc-read.js';
import { isInside } from '../paths/is-inside.js';

async function openFilesOf(pid: number, wanted: ReadonlySet<string>, dirs: readonly string[]): Promise<LsofEntry[]> {
  const hit = (target: string): boolean => wanted.has(target) || dirs.some((d) => isInside(d, target));
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    // Gone, or another user's process: lsof without privileges cannot see it either.
    return [];
  }
  const names = new Set<string>();
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => null);
    if (target !== null && hit(target)) names.add(target);
  }
  // The working directory, as lsof's `cwd` entry: a shell cd'd into a conversation's dir holds it.
  const cwd = dirs.length === 0 ? null : await readlink(`/proc/${pid}/cwd`).catch(() => null);
  if (cwd !== null && hit(cwd)) names.add(cwd);
  if (names.size === 0) return [];
  const command = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).replace(/\n$/, '');
  return [...names].map((name) => ({ pid, command, name }));
}

/**
 * The lsof answer computed from `/proc/<pid>/fd` links without spawning: every process holding one of `realPaths` open,
 * and for the directories among `dirs` every process whose cwd (`/proc/<pid>/cwd`) or an open file lies in or below one.
 * @public
 */
export async function procFdOpenFiles(realPaths: readonly string[], dirs: readonly string[] = []): Promise<LsofEntry[]> {
  if (realPaths.length === 0) return [];
  const wanted = new Set(realPaths);
  const per = await mapLimit(await listProcPids(), 16, (pid) => openFilesOf(pid, wanted, dirs));
  return per.flat();
}
