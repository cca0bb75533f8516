import { HerdrCommandPort } from '../herdr/command-port.js';
import { runHerdrProcess, type HerdrProcessRunner } from './herdr-process.js';

/**
 * Options of {@link HerdrCli}.
 * @public
 */
export interface HerdrCliOptions {
  /** The herdr executable: a name looked up on PATH or a path. Default `herdr`. */
  bin?: string;
  /** Variables set over the caller's environment for every call; `undefined` removes one (e.g. `HERDR_SOCKET_PATH`). */
  env?: Record<string, string | undefined>;
  /** Runs the process; default `runHerdrProcess` (execa). */
  run?: HerdrProcessRunner;
}

/**
 * The real {@link HerdrPort}: every operation runs the `herdr` CLI once and reads its exact output.
 *
 * @example
 * ```ts
 * const herdr = new HerdrCli();
 * const presence = await herdr.agentPresence('reviewer', { session: 'work', deadlineMs: 5_000 });
 * ```
 * @public
 */
export class HerdrCli extends HerdrCommandPort {
  /** The executable this instance runs. */
  readonly bin: string;

  /** Builds the port; every call runs `opts.bin` (default `herdr`) with the caller's environment plus `opts.env`. */
  constructor(opts: HerdrCliOptions = {}) {
    const bin = opts.bin ?? 'herdr';
    const run = opts.run ?? runHerdrProcess;
    const overrides = opts.env ?? {};
    super((argv, ctx) => {
      const env = childEnv(overrides);
      return run(bin, argv, ctx.deadlineMs === undefined ? { env } : { env, timeoutMs: ctx.deadlineMs });
    });
    this.bin = bin;
  }
}

// Runs for every call: the caller's environment with the overrides applied.
function childEnv(overrides: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...overrides })) if (v !== undefined) env[k] = v;
  return env;
}
