import type { Clock } from '../../ports/clock.js';

interface Sleeper {
  at: number;
  order: number;
  resolve: () => void;
}

/** 2026-01-01T00:00:00Z: where virtual time starts unless told otherwise. */
const DEFAULT_EPOCH_MS = 1_767_225_600_000;

/**
 * A {@link Clock} whose time moves only when something sleeps: the earliest sleeper wakes one macrotask later with the clock at its deadline.
 * FakeHerdr's default, so waits and timeouts answer at once and in order, without real time.
 * @public
 */
export class VirtualClock implements Clock {
  #now: number;
  readonly #origin: number;
  #sleepers: Sleeper[] = [];
  #order = 0;
  #scheduled = false;

  /** A clock at `startMs` (epoch ms, default 2026-01-01T00:00:00Z); monotonic time starts at 0. */
  constructor(startMs: number = DEFAULT_EPOCH_MS) {
    this.#now = startMs;
    this.#origin = startMs;
  }

  /** {@inheritDoc Clock.now} */
  now(): number {
    return this.#now;
  }

  /** Milliseconds since the clock was created (virtual time). */
  monotonic(): number {
    return this.#now - this.#origin;
  }

  /** Moves time forward by `ms` (sleepers due by then wake in order, one macrotask apart). */
  advance(ms: number): void {
    this.#now += Math.max(0, ms);
  }

  /**
   * Resolves when virtual time reaches `now() + ms`: the earliest sleeper wakes first, one macrotask later; an abort
   * rejects with the signal's reason.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const sleeper: Sleeper = { at: this.#now + Math.max(0, ms), order: this.#order++, resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener('abort', () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal.reason);
      }, { once: true });
      this.#schedule();
    });
  }

  // One macrotask later, so whatever the sleeper's caller started synchronously (a state change, another call) lands first.
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setTimeout(() => {
      this.#scheduled = false;
      const next = [...this.#sleepers].sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (next === undefined) return;
      this.#sleepers = this.#sleepers.filter((s) => s !== next);
      this.#now = Math.max(this.#now, next.at);
      next.resolve();
      if (this.#sleepers.length > 0) this.#schedule();
    }, 0);
  }
}
