import { readdir, readFile } from 'node:fs/promises';
import type { ProcessInfo } from '../ports/process.js';
import type { ProcClock } from './proc-clock.js';
import { processStateOf } from '../process/process-state.js';
import { parseProcStat, splitCmdline } from './proc-parse.js';

/**
 * Reads one process from `/proc/<pid>/stat` and `/proc/<pid>/cmdline`, or null when it is gone (or unreadable).
 * @public
 */
export async function readProcProcess(pid: number, clock: ProcClock): Promise<ProcessInfo | null> {
  let statText: string;
  let cmdline: string;
  try {
    [statText, cmdline] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/cmdline`, 'utf8')]);
  } catch {
    // ENOENT/ESRCH: the process exited between listing and reading; skipped silently.
    return null;
  }
  const stat = parseProcStat(statText);
  if (stat === null || stat.pid !== pid) return null;
  const argv = splitCmdline(cmdline);
  const info: ProcessInfo = {
    pid,
    ppid: stat.ppid,
    startedAtMs: clock.bootTimeMs + Math.round((stat.startTicks * 1000) / clock.clkTck),
    startTicks: stat.startTicks,
    // A kernel thread or a zombie has no argv; ps shows it as `[comm]`, and so do we.
    command: argv.length > 0 ? argv.join(' ') : `[${stat.comm}]`,
    comm: stat.comm,
  };
  if (argv.length > 0) info.argv = argv;
  const state = processStateOf(stat.state);
  if (state !== undefined) info.state = state;
  return info;
}

/**
 * The pids listed in `/proc` (processes, not threads).
 * @public
 */
export async function listProcPids(): Promise<number[]> {
  const names = await readdir('/proc');
  return names.filter((n) => /^\d+$/.test(n)).map(Number);
}
