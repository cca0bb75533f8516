import type { ProcessInfo } from '../ports/process.js';
import { readProcClock } from './proc-clock.js';
import { mapLimit } from '../map-limit.js';
import { listProcPids, readProcProcess } from './proc-read.js';

/**
 * The whole process table read from `/proc` without spawning anything; processes that vanish mid-scan are skipped.
 * @public
 */
export async function procSnapshot(): Promise<ProcessInfo[]> {
  const [clock, pids] = await Promise.all([readProcClock(), listProcPids()]);
  const infos = await mapLimit(pids, 32, (pid) => readProcProcess(pid, clock));
  return infos.filter((p): p is ProcessInfo => p !== null);
}
