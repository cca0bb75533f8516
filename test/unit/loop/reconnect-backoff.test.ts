import { describe, expect, it } from 'vitest';
import { ReconnectBackoff } from '../../../src/loop/index.js';

describe('ReconnectBackoff', () => {
  it('doubles 1, 2, 4, 8, 16 s and stays at 16 s', () => {
    expect(new ReconnectBackoff().sequence(7)).toEqual([1000, 2000, 4000, 8000, 16000, 16000, 16000]);
    expect(new ReconnectBackoff().delayAfter(10_000)).toBe(16000);
  });

  it('counts failures, and a success resets the delay to 0', () => {
    const b = new ReconnectBackoff<{ agent_status: string }>();
    expect(b.current).toBe(0);
    expect(b.recordFailure()).toBe(1000);
    expect(b.recordFailure()).toBe(2000);
    expect(b.consecutiveFailures).toBe(2);
    b.recordSuccess({ agent_status: 'idle' });
    expect([b.consecutiveFailures, b.current]).toEqual([0, 0]);
  });

  it('caches the snapshot of a success and drops it on the next failure', () => {
    const b = new ReconnectBackoff<{ agent_status: string }>();
    b.recordSuccess({ agent_status: 'idle' });
    expect(b.cachedSnapshot).toEqual({ agent_status: 'idle' });
    b.recordSuccess();
    expect(b.cachedSnapshot).toEqual({ agent_status: 'idle' });
    b.recordFailure();
    expect(b.cachedSnapshot).toBeNull();
  });
});
