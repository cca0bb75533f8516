import { loadExeca } from './lazy-execa.js';
import { PortError } from '../errors.js';
import type { RunOptions, RunResult } from '../ports/process.js';

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Runs a command to completion with exactly `env` as its environment; any exit is a result, a spawn failure a {@link PortError}.
 * @public
 */
export async function runCommand(
  file: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  opts: Omit<RunOptions, 'env'> = {},
  op = 'proc.run',
): Promise<RunResult> {
  const r = await (await loadExeca())(file, args, {
    reject: false,
    env: definedEnv(env),
    extendEnv: false,
    stripFinalNewline: false,
    encoding: 'utf8',
    ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }),
    ...(opts.timeoutMs === undefined ? {} : { timeout: opts.timeoutMs }),
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
  const command = r.command;
  if (r.exitCode === undefined && r.signal === undefined && !r.timedOut) {
    // No exit and no signal: the process never started.
    const errno = typeof r.code === 'string' ? r.code : undefined;
    const details = { command, ...(errno === undefined ? {} : { errno }) };
    if (opts.cwd !== undefined && (r.message ?? '').includes('"cwd" option is invalid')) {
      throw new PortError('NotFound', op, `working directory not found for ${command}: ${opts.cwd}`, { ...details, path: opts.cwd }, { cause: r });
    }
    if (errno === 'ENOENT') throw new PortError('CommandNotFound', op, `command not found: ${file}`, details, { cause: r });
    throw new PortError('CommandFailed', op, `could not start ${command}: ${r.shortMessage ?? r.message ?? 'spawn failed'}`, details, { cause: r });
  }
  return {
    command,
    exitCode: r.exitCode ?? null,
    signal: r.signal ?? null,
    stdout: typeof r.stdout === 'string' ? r.stdout : '',
    stderr: typeof r.stderr === 'string' ? r.stderr : '',
    durationMs: r.durationMs,
    timedOut: r.timedOut,
    failed: r.exitCode !== 0,
  };
}
