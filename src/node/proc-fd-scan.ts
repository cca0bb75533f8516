import { readdir, readFile, readlink } from 'node:fs/promises';
import type { LsofEntry } from './lsof-parse.js';
import { mapLimit } from '../map-limit.js';
import { listProcPids } from './proc-read.js';

async function openFilesOf(pid: number, wanted: ReadonlySet<string>): Promise<LsofEntry[]> {
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
    if (target !== null && wanted.has(target)) names.add(target);
  }
  if (names.size === 0) return [];
  const command = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).replace(/\n$/, '');
  return [...names].map((name) => ({ pid, command, name }));
}

/**
 * The lsof answer computed from `/proc/<pid>/fd` links without spawning: every process holding one of `realPaths` open.
 * @public
 */
export async function procFdOpenFiles(realPaths: readonly string[]): Promise<LsofEntry[]> {
  if (realPaths.length === 0) return [];
  const wanted = new Set(realPaths);
  const per = await mapLimit(await listProcPids(), 16, (pid) => openFilesOf(pid, wanted));
  return per.flat();
}
