import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import type { HerdrAgentStatus, HerdrPort } from '../ports/herdr.js';
import { WatchArgumentError } from './watch-argument-error.js';
import { watchOutcomeOf, type WatchOutcome } from './watch-outcome.js';
import { describeError } from '../errors.js';

/**
 * The statuses a watcher waits for unless told otherwise: all four real ones, because herdr's own default (no `--until`) silently drops `working`.
 * @public
 */
export const DEFAULT_WATCH_UNTIL: readonly HerdrAgentStatus[] = ['idle', 'working', 'blocked', 'done'];

const WAITABLE: readonly HerdrAgentStatus[] = ['idle', 'working', 'blocked', 'done', 'unknown'];

/**
 * Options of {@link waitOnce}.
 * @public
 */
export interface WaitOnceOptions {
  /** How long herdr waits, in milliseconds (positive): passed as `--timeout`. */
  timeoutMs: number;
  /** The statuses to wait for, each passed as `--until`; default {@link DEFAULT_WATCH_UNTIL}. */
  until?: readonly HerdrAgentStatus[];
  /** The herdr session (server) the agent lives on. */
  session?: string;
}

/**
 * Checks a wait's arguments, throwing a {@link WatchArgumentError} for a timeout that is not a positive integer of ms or an empty or unknown `until`.
 * @public
 */
export function checkWaitArguments(opts: WaitOnceOptions): readonly HerdrAgentStatus[] {
  if (!Number.isSafeInteger(opts.timeoutMs) || opts.timeoutMs <= 0) {
    throw new WatchArgumentError(`timeoutMs must be a positive integer of milliseconds, got ${String(opts.timeoutMs)}`, { timeoutMs: opts.timeoutMs });
  }
  const until = opts.until ?? DEFAULT_WATCH_UNTIL;
  if (until.length === 0) throw new WatchArgumentError('until must name at least one status (herdr would silently drop working)', {});
  const bad = until.filter((s) => !WAITABLE.includes(s));
  if (bad.length > 0) throw new WatchArgumentError(`unknown agent status in until: ${bad.join(', ')}`, { until: [...until] });
  return until;
}

/**
 * Runs `herdr agent wait <agent> --until … --timeout <ms>` once for a row's agent (its name sanitized) and reads the answer; transport failures, even a port that throws, come back as values.
 * @example
 * ```ts
 * const out = await waitOnce(ports.herdr, 'reviewer', { timeoutMs: 15_000, until: ['idle', 'working'] });
 * if (out.kind === 'matched') use(out.agent.agent_status);
 * ```
 * @public
 */
export async function waitOnce(herdr: HerdrPort, agent: string, opts: WaitOnceOptions): Promise<WatchOutcome> {
  const until = checkWaitArguments(opts);
  const name = sanitizeHerdrAgentName(agent);
  try {
    const result = await herdr.agentWait(name, { until, timeoutMs: opts.timeoutMs }, opts.session === undefined ? undefined : { session: opts.session });
    return watchOutcomeOf(result);
  } catch (err) {
    return { kind: 'transport_error', healthy: false, message: `herdr agent wait failed: ${describeError(err)}`, exitCode: null, stderr: '' };
  }
}
