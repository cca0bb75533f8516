// shareWhileRunning: calls with one key while a run is going share it; a call after it settled runs again; a failure is
// the answer of the calls that shared it, and the next call runs afresh.
import { describe, expect, it } from 'vitest';
import { shareWhileRunning } from '../../../src/agents/common/batch-memo.js';

describe('shareWhileRunning', () => {
  it('shares a running call per key, and runs again once it has settled', async () => {
    let runs = 0;
    const read = shareWhileRunning((id: string, home: string) => `${id}\0${home}`, async (id: string, home: string) => `${id}@${home}#${++runs}`);
    const [a, b, c] = await Promise.all([read('x', '/h'), read('x', '/h'), read('y', '/h')]);
    expect([a, b, c]).toEqual(['x@/h#1', 'x@/h#1', 'y@/h#2']);
    expect(await read('x', '/h')).toBe('x@/h#3');
  });

  it('a failure is shared by the calls that were waiting, and the next call runs afresh', async () => {
    let runs = 0;
    const read = shareWhileRunning((k: string) => k, async (_k: string) => {
      runs += 1;
      if (runs === 1) throw new Error('gone');
      return runs;
    });
    const both = await Promise.allSettled([read('k'), read('k')]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await read('k')).toBe(2);
  });
});
