import type { Clock } from '../../src/ports/clock.js';

/** A wall-clock Clock for tests that mix a FakeHerdr with real timers (the library itself never reads the time). */
export function herdrRealClock(): Clock {
  return {
    now: () => Date.now(),
    monotonic: () => performance.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason);
          return;
        }
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        }, { once: true });
      }),
  };
}

/** Resolves after `ms` of real time. */
export function herdrPause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
