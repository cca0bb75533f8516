import { loadExeca } from './lazy-execa.js';
import type { HerdrRawOutput } from '../herdr/output.js';

/**
 * Runs one program for {@link HerdrCli}: `file args…` with exactly `env`, killed after `timeoutMs`.
 * @public
 */
export type HerdrProcessRunner = (
  file: string,
  args: readonly string[],
  opts: { env: Record<string, string>; timeoutMs?: number },
) => Promise<HerdrRawOutput>;

/**
 * The default {@link HerdrProcessRunner}: execa with `reject: false`, stdin closed, output kept byte-exact.
 * @public
 */
export const runHerdrProcess: HerdrProcessRunner = async (file, args, opts) => {
  const result = await (await loadExeca())(file, args, {
    reject: false,
    env: opts.env,
    extendEnv: false,
    stdin: 'ignore',
    // `agent read` prints the text exactly; a trailing newline is part of it.
    stripFinalNewline: false,
    ...(opts.timeoutMs === undefined ? {} : { timeout: opts.timeoutMs }),
  });
  const stdout = typeof result.stdout === 'string' ? result.stdout : '';
  const stderr = typeof result.stderr === 'string' ? result.stderr : '';
  if (result.timedOut) return { kind: 'timed_out', afterMs: opts.timeoutMs ?? 0, stdout, stderr };
  if (typeof result.exitCode === 'number') return { kind: 'exited', stdout, stderr, exitCode: result.exitCode, signal: null };
  if (result.signal !== undefined) return { kind: 'exited', stdout, stderr, exitCode: null, signal: result.signal };
  const cause = 'originalMessage' in result && typeof result.originalMessage === 'string' ? result.originalMessage : result.shortMessage;
  return { kind: 'spawn_failed', message: cause ?? `could not run ${file}` };
};
