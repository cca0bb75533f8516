import { resolvePorts } from '../node/node-ports.js';
import type { HerdrAgentInfo, HerdrAgentStatus } from '../ports/herdr.js';
import type { Ports } from '../ports/index.js';
import { checkBackoffOptions, ReconnectBackoff, type ReconnectBackoffOptions } from './reconnect-backoff.js';
import { checkWaitArguments, waitOnce } from './wait-once.js';
import { observationFrom, type WatchObservation, type WatchOutcome } from './watch-outcome.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import { parseArgument } from '../validation/common-schemas.js';
import { nameSchema, objectSchema } from '../validation/workspace-args.js';

const watcherOptions = lazySchema((z: Zod) =>
  z.object({ agent: nameSchema(z), session: nameSchema(z).optional(), ports: objectSchema(z).optional(), backoff: z.unknown().optional() }, { error: 'must be an object' }).loose());

/** Checks the members of {@link HerdrWatcher}'s options that the wait rules do not (the agent, session, ports, backoff). */
export function checkWatcherOptions(opts: HerdrWatcherOptions): HerdrWatcherOptions {
  parseArgument(watcherOptions, 'opts', opts);
  checkBackoffOptions(opts.backoff, 'opts.backoff');
  return opts;
}

/**
 * Options of {@link HerdrWatcher}.
 * @public
 */
export interface HerdrWatcherOptions {
  /** The row name of the agent to watch (sanitized for herdr on every call). */
  agent: string;
  /** The herdr session (server) the agent lives on. */
  session?: string;
  /** The statuses each wait returns on; default all four real ones. */
  until?: readonly HerdrAgentStatus[];
  /** Each wait's `--timeout` in ms (default 15 000). */
  timeoutMs?: number;
  /** The reconnect delays after a transport failure (default 1 s doubling to 16 s). */
  backoff?: ReconnectBackoffOptions;
  /** Ports to use instead of the real ones; the watcher uses only `herdr` and `clock` (defaults: Node's). */
  ports?: Partial<Ports>;
}

/**
 * One step of a {@link HerdrWatcher}: the wait's outcome, the observation it carries (stamped with the clock), and the backoff slept before it.
 * @public
 */
export interface WatchStep {
  /** What the wait came to: matched, timed out, agent not found, a herdr error or a transport failure. */
  outcome: WatchOutcome;
  /**
   * What the step saw, stamped with the clock's time in ms; null unless the wait matched (a timeout or an error proves
   * nothing).
   */
  observation: (WatchObservation & { observedAtMs: number }) | null;
  /** How long the step slept before asking herdr (the reconnect backoff; 0 while healthy). */
  backoffMs: number;
}

/**
 * Watches one agent through `herdr agent wait`, one wait per {@link HerdrWatcher.next} call, backing off after transport failures and dropping its cached snapshot when one happens.
 * @example
 * ```ts
 * const watcher = new HerdrWatcher({ agent: 'reviewer', session: 'work', timeoutMs: 15_000 });
 * const step = await watcher.next();
 * if (step.observation !== null) decide(step.observation.agent.agent_status);
 * ```
 * @public
 */
export class HerdrWatcher {
  /** The reconnect delay and the last healthy snapshot. */
  readonly backoff: ReconnectBackoff<HerdrAgentInfo>;
  readonly #opts: HerdrWatcherOptions & { timeoutMs: number };
  readonly #ports: Pick<Ports, 'herdr' | 'clock'>;

  /**
   * Checks the options (a timeout that is not a positive integer of ms, or a bad `until`, throws a {@link
   * WatchArgumentError}); nothing is asked until {@link HerdrWatcher.next}.
   */
  constructor(opts: HerdrWatcherOptions) {
    checkWatcherOptions(opts);
    this.#opts = { ...opts, timeoutMs: opts.timeoutMs ?? 15_000 };
    checkWaitArguments(this.#opts);
    const { herdr, clock } = resolvePorts(opts.ports);
    this.#ports = { herdr, clock };
    this.backoff = new ReconnectBackoff(opts.backoff);
  }

  /** The last snapshot a healthy wait matched, or null since the last failure. */
  get snapshot(): HerdrAgentInfo | null {
    return this.backoff.cachedSnapshot;
  }

  /** Sleeps the reconnect delay if the last step failed, waits once, and records the outcome; rejects only when `signal` aborts the sleep. */
  async next(signal?: AbortSignal): Promise<WatchStep> {
    const { herdr, clock } = this.#ports;
    const backoffMs = this.backoff.current;
    if (backoffMs > 0) await clock.sleep(backoffMs, signal);
    const { agent, session, until, timeoutMs } = this.#opts;
    const outcome = await waitOnce(herdr, agent, { timeoutMs, ...(until === undefined ? {} : { until }), ...(session === undefined ? {} : { session }) });
    if (outcome.healthy) this.backoff.recordSuccess(outcome.kind === 'matched' ? outcome.agent : undefined);
    else this.backoff.recordFailure();
    const seen = observationFrom(outcome);
    return { outcome, observation: seen === null ? null : { ...seen, observedAtMs: clock.now() }, backoffMs };
  }
}
