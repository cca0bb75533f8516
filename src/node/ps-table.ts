import { PortError } from '../errors.js';
import type { ProcessInfo } from '../ports/process.js';
import { runCommand } from './proc-run.js';
import { parsePsOutput } from './ps-parse.js';

const FORMAT = 'pid=,ppid=,stat=,lstart=,comm=,args=';
const DEFAULT_PATH = '/usr/bin:/bin:/usr/sbin:/sbin';

/**
 * The environment ps runs under: the caller's PATH, and `TZ=UTC0 LC_ALL=C` so lstart is UTC in English whatever the caller's zone.
 * @public
 */
export function psEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return { PATH: env['PATH'] ?? DEFAULT_PATH, TZ: 'UTC0', LC_ALL: 'C' };
}

/**
 * The whole process table from ONE `ps -axww` run.
 * @public
 */
export async function psSnapshot(env: Readonly<Record<string, string | undefined>>): Promise<ProcessInfo[]> {
  const r = await runCommand('ps', ['-axww', '-o', FORMAT], psEnv(env), { timeoutMs: 30_000 }, 'proc.snapshot');
  if (r.exitCode !== 0) {
    throw new PortError('CommandFailed', 'proc.snapshot', `ps failed (${r.exitCode ?? r.signal ?? 'no exit'}): ${r.stderr.trim()}`, {
      command: r.command,
      stderr: r.stderr,
      ...(r.exitCode === null ? {} : { exitCode: r.exitCode }),
    });
  }
  return parsePsOutput(r.stdout);
}

/**
 * One process from `ps -p <pid>`, or null when there is none (ps exits 1 with no line).
 * @public
 */
export async function psLookup(pid: number, env: Readonly<Record<string, string | undefined>>): Promise<ProcessInfo | null> {
  const r = await runCommand('ps', ['-ww', '-p', String(pid), '-o', FORMAT], psEnv(env), { timeoutMs: 30_000 }, 'proc.lookup');
  const found = parsePsOutput(r.stdout).find((p) => p.pid === pid);
  if (found !== undefined) return found;
  if (r.exitCode === 0 || r.exitCode === 1) return null;
  throw new PortError('CommandFailed', 'proc.lookup', `ps -p ${pid} failed (${r.exitCode ?? r.signal ?? 'no exit'}): ${r.stderr.trim()}`, {
    command: r.command,
    stderr: r.stderr,
    ...(r.exitCode === null ? {} : { exitCode: r.exitCode }),
  });
}
