import type { Clock } from '../../ports/clock.js';

/**
 * Options of {@link FakeClock}.
 * @public
 */
export interface FakeClockOptions {
  /** Wall-clock epoch milliseconds at creation (default 1 700 000 000 000). */
  now?: number;
  /** Monotonic milliseconds at creation (default 0). */
  monotonic?: number;
  /** When true, `sleep(ms)` moves time forward by `ms` at once and resolves, so waits cost no real time. */
  autoAdvance?: boolean;
}

interface Sleeper {
  due: number;
  seq: number;
  resolve: () => void;
  detach: () => void;
}

// Lets the continuation of a woken sleeper run (and perhaps schedule its next sleep) before time moves on.
function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A `Clock` whose time moves only when told: `advance(ms)` wakes due sleeps in order, or `autoAdvance` jumps time on every sleep.
 * @example
 * ```ts
 * const clock = new FakeClock();
 * const done = clock.sleep(100);
 * await clock.advance(100); // `done` is now resolved
 * ```
 * @public
 */
export class FakeClock implements Clock {
  readonly #wallStart: number;
  readonly #monoStart: number;
  readonly #autoAdvance: boolean;
  #elapsed = 0;
  #seq = 0;
  #sleepers: Sleeper[] = [];

  /** A clock stopped at `now` / `monotonic` until advanced (or moving on every sleep with `autoAdvance`). */
  constructor(opts: FakeClockOptions = {}) {
    this.#wallStart = opts.now ?? 1_700_000_000_000;
    this.#monoStart = opts.monotonic ?? 0;
    this.#autoAdvance = opts.autoAdvance ?? false;
  }

  /** Wall-clock epoch milliseconds: the start plus all time advanced. */
  now(): number {
    return this.#wallStart + this.#elapsed;
  }

  /** Monotonic milliseconds: the start plus all time advanced. */
  monotonic(): number {
    return this.#monoStart + this.#elapsed;
  }

  /** How many sleeps are waiting for time to advance. */
  get pendingSleeps(): number {
    return this.#sleepers.length;
  }

  /** Resolves once time reaches now + `ms` (at once with `autoAdvance`), or rejects with the signal's reason. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const wait = Math.max(0, ms);
    if (this.#autoAdvance || wait === 0) {
      this.#elapsed += wait;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        due: this.#elapsed + wait,
        seq: this.#seq++,
        resolve,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /** Moves time forward by `ms`, waking each sleep that falls due, earliest first, and letting it run before moving on. */
  async advance(ms: number): Promise<void> {
    const target = this.#elapsed + Math.max(0, ms);
    for (;;) {
      const next = this.#nextDue();
      if (next === undefined || next.due > target) break;
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      this.#elapsed = Math.max(this.#elapsed, next.due);
      next.detach();
      next.resolve();
      await flushMicrotasks();
    }
    this.#elapsed = target;
    await flushMicrotasks();
  }

  #nextDue(): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const s of this.#sleepers) {
      if (best === undefined || s.due < best.due || (s.due === best.due && s.seq < best.seq)) best = s;
    }
    return best;
  }
}
