import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../ports/clock.js';

// A function, not an inline test: TypeScript would keep `aborted` narrowed to false from the first check.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * The real {@link Clock}: `Date.now`, `performance.now`, and timer-based sleeps that honour an `AbortSignal`.
 * @public
 */
export class NodeClock implements Clock {
  /** {@inheritDoc Clock.now} */
  now(): number {
    return Date.now();
  }

  /** {@inheritDoc Clock.monotonic} */
  monotonic(): number {
    return performance.now();
  }

  /** {@inheritDoc Clock.sleep} */
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) throw signal.reason;
    try {
      await delay(Math.max(0, ms), undefined, signal === undefined ? {} : { signal });
    } catch (err) {
      // timers/promises rejects with its own AbortError; the port promises the signal's reason.
      if (isAborted(signal)) throw signal?.reason;
      throw err;
    }
  }
}
