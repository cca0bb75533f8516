import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../../src/map-limit.js';

describe('mapLimit', () => {
  it('keeps order and never has more than `limit` calls in flight', async () => {
    let live = 0;
    let peak = 0;
    const out = await mapLimit([...Array(40).keys()], 8, async (n) => {
      live++;
      peak = Math.max(peak, live);
      await new Promise((r) => setTimeout(r, (n * 7) % 5));
      live--;
      return n * 2;
    });
    expect(out).toEqual([...Array(40).keys()].map((n) => n * 2));
    expect(peak).toBe(8);
    expect(await mapLimit([], 8, async () => 1)).toEqual([]);
  });
});
