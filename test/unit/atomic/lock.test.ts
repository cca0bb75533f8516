import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, LockTimeoutError, tryLock, withLock } from '../../../src/atomic/index.js';
import { isPortError, MamError } from '../../../src/errors.js';
import { NodeClock } from '../../../src/node/node-clock.js';
import type { Clock } from '../../../src/ports/clock.js';
import { FakeClock } from '../../../src/testing/fs/index.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

describe('lock (in one process)', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  let lockPath: string;
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-lock-unit-'));
    lockPath = join(dir, 'x.lock');
  });
  afterEach(async () => {
    await dispose();
  });

  it('two handles in the same process exclude each other', () => {
    const a = tryLock(lockPath);
    expect(a?.held).toBe(true);
    expect(a?.path).toBe(lockPath);
    expect(tryLock(lockPath)).toBeNull();
    a?.release();
    const b = tryLock(lockPath);
    expect(b).not.toBeNull();
    b?.release();
  });

  it('release is idempotent and clears held', () => {
    const a = tryLock(lockPath);
    a?.release();
    a?.release();
    expect(a?.held).toBe(false);
    const b = tryLock(lockPath);
    expect(b?.held).toBe(true);
    a?.release();
    expect(tryLock(lockPath)).toBeNull();
    b?.release();
  });

  it('leaves only the empty lock file in the dir after acquire and release', async () => {
    const lock = await acquireLock(lockPath, { clock: new NodeClock() });
    lock.release();
    expect(await nfs.readdir(dir)).toEqual(['x.lock']);
    expect((await nfs.stat(lockPath)).size).toBe(0);
  });

  it('waits while held and gets the lock on the next poll after release (fake clock)', async () => {
    const clock = new FakeClock();
    const holder = tryLock(lockPath);
    let got = false;
    const pending = acquireLock(lockPath, { clock, pollMs: 10, timeoutMs: 1000 }).then((l) => {
      got = true;
      return l;
    });
    await clock.advance(100);
    expect(got).toBe(false);
    holder?.release();
    await clock.advance(100);
    expect(got).toBe(true);
    (await pending).release();
  });

  it('polls with jittered backoff that grows to at most eight times pollMs and never sleeps past the deadline', async () => {
    const inner = new FakeClock({ autoAdvance: true });
    const sleeps: number[] = [];
    const clock: Clock = {
      now: () => inner.now(),
      monotonic: () => inner.monotonic(),
      sleep: (ms, signal) => {
        sleeps.push(ms);
        return inner.sleep(ms, signal);
      },
    };
    const holder = tryLock(lockPath);
    // The jitter from a fixed sequence (its extremes included), so the test never depends on a random draw.
    const draws = [0, 0.999999, 0.5, 0.25, 0.75, 0.1, 0.9];
    let n = 0;
    const random = (): number => draws[n++ % draws.length] as number;
    const err = await acquireLock(lockPath, { clock, pollMs: 10, timeoutMs: 1000, random }).catch((e: unknown) => e);
    holder?.release();
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(n).toBe(sleeps.length);
    expect(sleeps[0]).toBeGreaterThanOrEqual(7.5);
    expect(sleeps[0]).toBeLessThanOrEqual(12.5);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(100);
    expect(sleeps.slice(5, -1).every((ms) => ms >= 25)).toBe(true);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeCloseTo(1000, 6);
  });

  it('a last wait of less than 1 ms before the deadline is cut to what is left, not slept past the deadline', async () => {
    const inner = new FakeClock({ autoAdvance: true });
    const sleeps: number[] = [];
    const clock: Clock = { now: () => inner.now(), monotonic: () => inner.monotonic(), sleep: (ms, signal) => (sleeps.push(ms), inner.sleep(ms, signal)) };
    const holder = tryLock(lockPath);
    // No jitter (0.5): waits of 10, 15, 22.5, 33.75, 50.625, 75.9375, 80 ms, 287.8125 ms in all; 0.5 ms is left after them.
    const err = await acquireLock(lockPath, { clock, pollMs: 10, timeoutMs: 288.3125, random: () => 0.5 }).catch((e: unknown) => e);
    holder?.release();
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(sleeps).toEqual([10, 15, 22.5, 33.75, 50.625, 75.9375, 80, 0.5]);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(288.3125);
  });

  it('jitter draws are spread over 0.75–1.25 of the delay, a draw out of [0, 1) is clamped', async () => {
    const inner = new FakeClock({ autoAdvance: true });
    const sleeps: number[] = [];
    const clock: Clock = { now: () => inner.now(), monotonic: () => inner.monotonic(), sleep: (ms, signal) => (sleeps.push(ms), inner.sleep(ms, signal)) };
    const holder = tryLock(lockPath);
    const draws = [0, 1, -5, 7, Number.NaN];
    let n = 0;
    await acquireLock(lockPath, { clock, pollMs: 40, timeoutMs: 5 * 100, random: () => draws[n++] ?? 0.5 }).catch(() => undefined);
    holder?.release();
    // 40·0.75, 60·1.25, 90·0.75 (clamped from -5), 135·1.25 (clamped from 7), 202.5·1 (NaN: no jitter), then what is left.
    expect(sleeps.slice(0, 4)).toEqual([30, 75, 67.5, 168.75]);
    expect(sleeps[4]).toBeCloseTo(500 - 30 - 75 - 67.5 - 168.75, 9);
  });

  it('times out with a LockTimeoutError naming the path and the wait', async () => {
    const holder = tryLock(lockPath);
    const err = await acquireLock(lockPath, { clock: new FakeClock({ autoAdvance: true }), timeoutMs: 500 }).catch((e: unknown) => e);
    holder?.release();
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect(err).toBeInstanceOf(MamError);
    const e = err as LockTimeoutError;
    expect(e.code).toBe('LOCK_TIMEOUT');
    expect(e.data).toEqual({ lockPath, waitedMs: 500 });
    expect(e.message).toContain(lockPath);
  });

  it('an abort rejects with the reason, before or during the wait', async () => {
    const holder = tryLock(lockPath);
    const pre = new AbortController();
    pre.abort(new Error('stop'));
    await expect(acquireLock(lockPath, { clock: new FakeClock(), signal: pre.signal })).rejects.toThrow('stop');
    const clock = new FakeClock();
    const ctl = new AbortController();
    const pending = acquireLock(lockPath, { clock, signal: ctl.signal, timeoutMs: Infinity });
    await clock.advance(50);
    ctl.abort(new Error('later'));
    await expect(pending).rejects.toThrow('later');
    holder?.release();
  });

  it('keeps the event loop free while waiting', async () => {
    const holder = tryLock(lockPath);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await acquireLock(lockPath, { clock: new NodeClock(), timeoutMs: 200 }).catch(() => undefined);
    clearInterval(timer);
    holder?.release();
    expect(ticks).toBeGreaterThan(10);
  });

  it('withLock returns the result and releases, also when fn throws', async () => {
    const clock = new FakeClock({ autoAdvance: true });
    expect(await withLock(lockPath, { clock }, (l) => (l.held ? 42 : 0))).toBe(42);
    await expect(
      withLock(lockPath, { clock }, async () => {
        throw new Error('inner');
      }),
    ).rejects.toThrow('inner');
    const again = tryLock(lockPath);
    expect(again).not.toBeNull();
    again?.release();
  });

  it('fails with a PortError when the dir is missing, the path is a dir, or the file is not a lock file', async () => {
    const missing = (() => {
      try {
        return tryLock(join(dir, 'no', 'x.lock'));
      } catch (err) {
        return err;
      }
    })();
    expect(isPortError(missing, 'NotFound')).toBe(true);
    expect(() => tryLock(dir)).toThrow(expect.objectContaining({ op: 'lock.acquire' }));
    await nfs.writeFile(join(dir, 'junk'), 'x'.repeat(200));
    expect(() => tryLock(join(dir, 'junk'))).toThrow(expect.objectContaining({ code: 'InvalidArgument', path: join(dir, 'junk') }));
  });
});
