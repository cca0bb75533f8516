import { describe, expect, it } from 'vitest';
import { NodeClock } from '../../../src/node/node-clock.js';
import { FakeClock } from '../../../src/testing/fs/index.js';

describe('FakeClock', () => {
  it('starts at the given instants and moves only on advance', async () => {
    const clock = new FakeClock({ now: 1000, monotonic: 5 });
    expect([clock.now(), clock.monotonic()]).toEqual([1000, 5]);
    await clock.advance(250);
    expect([clock.now(), clock.monotonic()]).toEqual([1250, 255]);
  });

  it('advance wakes due sleeps in due order (ties in call order) and leaves later ones pending', async () => {
    const clock = new FakeClock({ now: 0 });
    const woke: string[] = [];
    const track = (name: string, ms: number): void => {
      void clock.sleep(ms).then(() => woke.push(`${name}@${clock.now()}`));
    };
    track('c', 30);
    track('a', 10);
    track('b', 10);
    track('late', 100);
    expect(clock.pendingSleeps).toBe(4);
    await clock.advance(50);
    expect(woke).toEqual(['a@10', 'b@10', 'c@30']);
    expect(clock.pendingSleeps).toBe(1);
    expect(clock.now()).toBe(50);
  });

  it('a sleep scheduled by a woken sleeper inside the window also fires during the same advance', async () => {
    const clock = new FakeClock({ now: 0 });
    const woke: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(10);
        woke.push(clock.now());
      }
    })();
    await clock.advance(25);
    expect(woke).toEqual([10, 20]);
    await clock.advance(5);
    expect(woke).toEqual([10, 20, 30]);
  });

  it('sleep rejects with the abort reason, at once or while pending, and leaves the queue', async () => {
    const clock = new FakeClock();
    const pre = new AbortController();
    pre.abort(new Error('pre'));
    await expect(clock.sleep(10, pre.signal)).rejects.toThrow('pre');
    const ctl = new AbortController();
    const pending = clock.sleep(10, ctl.signal);
    expect(clock.pendingSleeps).toBe(1);
    ctl.abort(new Error('later'));
    await expect(pending).rejects.toThrow('later');
    expect(clock.pendingSleeps).toBe(0);
  });

  it('autoAdvance jumps time on every sleep without waiting', async () => {
    const clock = new FakeClock({ now: 0, autoAdvance: true });
    await clock.sleep(60_000);
    await clock.sleep(500);
    expect(clock.now()).toBe(60_500);
    expect(clock.monotonic()).toBe(60_500);
    expect(clock.pendingSleeps).toBe(0);
  });
});

describe('NodeClock', () => {
  it('now is wall time and monotonic does not go backwards', () => {
    const clock = new NodeClock();
    const before = Date.now();
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now - before).toBeLessThan(1000);
    const a = clock.monotonic();
    expect(clock.monotonic()).toBeGreaterThanOrEqual(a);
  });

  it('sleeps about the asked time', async () => {
    const clock = new NodeClock();
    const start = clock.monotonic();
    await clock.sleep(30);
    expect(clock.monotonic() - start).toBeGreaterThanOrEqual(25);
  });

  it('rejects with the signal reason, already aborted or aborted mid-sleep', async () => {
    const clock = new NodeClock();
    const pre = new AbortController();
    pre.abort(new Error('pre'));
    await expect(clock.sleep(10, pre.signal)).rejects.toThrow('pre');
    const ctl = new AbortController();
    const start = clock.monotonic();
    const pending = clock.sleep(10_000, ctl.signal);
    setTimeout(() => ctl.abort(new Error('mid')), 10);
    await expect(pending).rejects.toThrow('mid');
    expect(clock.monotonic() - start).toBeLessThan(5000);
  });
});
