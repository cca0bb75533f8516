import { describe, expect, it } from 'vitest';
import { HerdrWatcher, WatchArgumentError } from '../../../src/loop/index.js';
import { FakeClock } from '../../../src/testing/fs/index.js';
import { FakeHerdr } from '../../../src/testing/herdr/index.js';

describe('HerdrWatcher', () => {
  it('a matched wait is an observation stamped with the clock, cached by the backoff', async () => {
    const clock = new FakeClock({ now: 5_000, autoAdvance: true });
    const herdr = new FakeHerdr({ clock });
    herdr.addAgent({ name: 'reviewer', kind: 'claude', status: 'idle' });
    const watcher = new HerdrWatcher({ agent: 'reviewer', timeoutMs: 1_000, ports: { herdr, clock } });
    const step = await watcher.next();
    expect(step).toMatchObject({ outcome: { kind: 'matched' }, observation: { agent: { agent_status: 'idle' } }, backoffMs: 0 });
    expect(watcher.snapshot?.agent_status).toBe('idle');
    const argv = herdr.calls.at(-1)?.argv ?? [];
    expect(argv.slice(0, 3)).toEqual(['agent', 'wait', 'reviewer']);
    expect(argv.filter((a) => a === '--until')).toHaveLength(4);
  });

  it('a timeout is healthy but no observation, and keeps the cached snapshot', async () => {
    const clock = new FakeClock({ autoAdvance: true });
    const herdr = new FakeHerdr({ clock });
    herdr.addAgent({ name: 'reviewer', kind: 'claude', status: 'idle' });
    const watcher = new HerdrWatcher({ agent: 'reviewer', until: ['idle'], timeoutMs: 1_000, ports: { herdr, clock } });
    expect((await watcher.next()).outcome.kind).toBe('matched');
    herdr.setStatus('reviewer', 'working');
    const step = await watcher.next();
    expect(step.outcome).toMatchObject({ kind: 'timeout', healthy: true });
    expect(step.observation).toBeNull();
    expect(watcher.backoff.consecutiveFailures).toBe(0);
    expect(watcher.snapshot?.agent_status).toBe('idle');
  });

  it('transport failures back off 1, 2, 4 s on the clock, drop the snapshot, and a success resets', async () => {
    const clock = new FakeClock({ autoAdvance: true });
    const herdr = new FakeHerdr({ clock });
    herdr.addAgent({ name: 'reviewer', kind: 'claude', status: 'idle' });
    const watcher = new HerdrWatcher({ agent: 'reviewer', timeoutMs: 1_000, ports: { herdr, clock } });
    await watcher.next();
    expect(watcher.snapshot).not.toBeNull();
    herdr.failNext('agent wait', 'transport', { times: 3 });
    const slept: number[] = [];
    for (let i = 0; i < 4; i++) {
      const step = await watcher.next();
      slept.push(step.backoffMs);
      if (i < 3) {
        expect(step.outcome.healthy).toBe(false);
        expect(watcher.snapshot).toBeNull();
      } else expect(step.outcome.kind).toBe('matched');
    }
    expect(slept).toEqual([0, 1000, 2000, 4000]);
    expect(watcher.backoff.current).toBe(0);
    expect(watcher.snapshot?.agent_status).toBe('idle');
  });

  it('a zero timeout is refused at construction', () => {
    expect(() => new HerdrWatcher({ agent: 'a', timeoutMs: 0, ports: { herdr: new FakeHerdr(), clock: new FakeClock() } })).toThrow(WatchArgumentError);
  });
});
