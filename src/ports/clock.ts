/**
 * Time, so waits and timeouts are testable without real time.
 * @public
 */
export interface Clock {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Monotonic milliseconds from an arbitrary origin, for deadlines. */
  monotonic(): number;
  /** Resolves after `ms` milliseconds, or rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
