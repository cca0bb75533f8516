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
    // The global `performance` (node:perf_hooks, loaded on first use rather than when @mam/core is imported).
    return globalThis.performance.now();
  }

  /** {@inheritDoc Clock.sleep} */
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) throw signal.reason;
    // node:timers/promises is loaded by the first sleep, not when @mam/core is imported.
    const { setTimeout: delay } = await import('node:timers/promises');
    try {
      await delay(Math.max(0, ms), undefined, signal === undefined ? {} : { signal });
    } catch (err) {
      // timers/promises rejects with its own AbortError; the port promises the signal's reason.
      if (isAborted(signal)) throw signal?.reason;
      throw err;
    }
  }
}
