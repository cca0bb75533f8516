import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/ports/clock.js';

/** What every Clock must do, real or fake: sane readings, sleeps that advance monotonic time, aborts that reject. */
export function clockContract(name: string, make: () => Clock, opts: { instantSleeps?: boolean } = {}): void {
  describe(`Clock contract: ${name}`, () => {
    it('reads wall time as finite epoch milliseconds and monotonic time that never goes back', async () => {
      const clock = make();
      expect(Number.isFinite(clock.now())).toBe(true);
      expect(clock.now()).toBeGreaterThan(1_500_000_000_000);
      const a = clock.monotonic();
      await clock.sleep(5);
      expect(clock.monotonic()).toBeGreaterThanOrEqual(a);
    });

    it('sleep(ms) resolves after monotonic time moved by at least ms', async () => {
      const clock = make();
      const before = clock.monotonic();
      await clock.sleep(20);
      expect(clock.monotonic() - before).toBeGreaterThanOrEqual(19);
    });

    it('sleep(0) resolves', async () => {
      await expect(make().sleep(0)).resolves.toBeUndefined();
    });

    it('an already-aborted signal rejects with its reason', async () => {
      const ctl = new AbortController();
      ctl.abort(new Error('stop now'));
      await expect(make().sleep(10, ctl.signal)).rejects.toThrow('stop now');
    });

    // A clock whose sleeps complete at once (FakeClock autoAdvance) has no 'during'.
    it.skipIf(opts.instantSleeps === true)('an abort during a sleep rejects it', async () => {
      const clock = make();
      const ctl = new AbortController();
      const pending = clock.sleep(60_000, ctl.signal);
      ctl.abort(new Error('cancelled'));
      await expect(pending).rejects.toThrow('cancelled');
    });
  });
}
