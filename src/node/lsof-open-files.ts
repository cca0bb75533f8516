import { PortError } from '../errors.js';
import { runCommand } from './proc-run.js';
import { parseLsofFields, type LsofEntry } from './lsof-parse.js';

/**
 * Every open file among `paths` (and, for those in `dirs`, every cwd or open file below them), from ONE `lsof` call; lsof exits 1 when some path is open nowhere, which is an answer, not a failure.
 * Rejects with `CommandNotFound` when lsof is not installed.
 * @public
 */
export async function lsofOpenFiles(paths: readonly string[], env: Readonly<Record<string, string | undefined>>, dirs: readonly string[] = []): Promise<LsofEntry[]> {
  if (paths.length === 0) return [];
  // A directory target is searched with +D: every process whose cwd or an open file is in it or below it (same call).
  const dirSet = new Set(dirs);
  const files = paths.filter((p) => !dirSet.has(p));
  const names = [...dirs.flatMap((d) => ['+D', d]), ...(files.length === 0 ? [] : ['--', ...files])];
  const vars = { PATH: env['PATH'] ?? '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C' };
  // +c 0: the whole command name (lsof truncates it to 9 characters by default).
  const r = await runCommand('lsof', ['-w', '+c', '0', '-F', 'pcn', ...names], vars, { timeoutMs: 60_000 }, 'proc.holders');
  if (r.exitCode === 0 || r.exitCode === 1) return parseLsofFields(r.stdout);
  throw new PortError('CommandFailed', 'proc.holders', `lsof failed (${r.exitCode ?? r.signal ?? 'no exit'}): ${r.stderr.trim()}`, {
    command: r.command,
    stderr: r.stderr,
    ...(r.exitCode === null ? {} : { exitCode: r.exitCode }),
  });
}
