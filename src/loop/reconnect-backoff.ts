import { lazySchema, type Zod } from '../lazy-zod.js';
import { checkOptions, msSchema, optionsSchema } from '../validation/workspace-args.js';

const backoffOptions = lazySchema((z: Zod) => optionsSchema(z, { baseMs: msSchema(z), maxMs: msSchema(z) }));

/** Checks {@link ReconnectBackoff}'s options (finite, not negative ms). */
export function checkBackoffOptions(opts: ReconnectBackoffOptions | undefined, param = 'opts'): ReconnectBackoffOptions {
  return checkOptions(backoffOptions, param, opts);
}

/**
 * Options of {@link ReconnectBackoff}.
 * @public
 */
export interface ReconnectBackoffOptions {
  /** The first delay (default 1 000 ms). */
  baseMs?: number;
  /** The ceiling (default 16 000 ms). */
  maxMs?: number;
}

/**
 * The watcher's reconnect delay and cached snapshot: each failure doubles the delay (1, 2, 4, 8, 16 s, then 16 s) and drops the snapshot; a success resets both.
 * @example
 * ```ts
 * const b = new ReconnectBackoff();
 * b.recordFailure(); // 1000
 * b.recordSuccess(agent); // current 0, cachedSnapshot agent
 * ```
 * @public
 */
export class ReconnectBackoff<T = unknown> {
  /** The first delay in ms. */
  readonly baseMs: number;
  /** The ceiling in ms. */
  readonly maxMs: number;
  #failures = 0;
  #snapshot: T | null = null;

  /** A healthy backoff: no failures, no snapshot. */
  constructor(options: ReconnectBackoffOptions = {}) {
    const opts = checkBackoffOptions(options);
    this.baseMs = opts.baseMs ?? 1_000;
    this.maxMs = opts.maxMs ?? 16_000;
  }

  /** Failures since the last success. */
  get consecutiveFailures(): number {
    return this.#failures;
  }

  /** The delay before the next reconnect: 0 while healthy. */
  get current(): number {
    return this.delayAfter(this.#failures);
  }

  /** The last snapshot a healthy wait matched, or null after a failure (stale state makes a disconnect look like a completion). */
  get cachedSnapshot(): T | null {
    return this.#snapshot;
  }

  /** The delay after `failures` consecutive failures. */
  delayAfter(failures: number): number {
    if (failures <= 0) return 0;
    // Capped exponent: 2 ** 1000 would be Infinity long before the ceiling matters.
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(failures - 1, 52));
  }

  /** The first `n` delays of an unbroken run of failures. */
  sequence(n: number): number[] {
    return Array.from({ length: Math.max(0, n) }, (_, i) => this.delayAfter(i + 1));
  }

  /** Counts a failure, drops the cached snapshot, and returns the delay to wait before reconnecting. */
  recordFailure(): number {
    this.#failures += 1;
    this.#snapshot = null;
    return this.current;
  }

  /** Resets the delay; caches `snapshot` when the success carried one (a healthy timeout keeps the old one). */
  recordSuccess(snapshot?: T): void {
    this.#failures = 0;
    if (snapshot !== undefined) this.#snapshot = snapshot;
  }
}
