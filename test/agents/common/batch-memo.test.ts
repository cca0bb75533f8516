import { describe, expect, it } from 'vitest';
import { answerEachPairOnce, batchMemo, objectMemo, verifyCanonical } from '../../../src/agents/common/batch-memo.js';

describe('batch helpers', () => {
  it('batchMemo makes one promise per key and leaves no failure unhandled', async () => {
    let made = 0;
    const get = batchMemo(async (k) => {
      made += 1;
      if (k === 'bad') throw new Error('no');
      return k.length;
    });
    expect(await Promise.all([get('ab'), get('ab'), get('abc')])).toEqual([2, 2, 3]);
    const bad = get('bad');
    expect(get('bad')).toBe(bad);
    await expect(bad).rejects.toThrow('no');
    expect(made).toBe(3);
  });

  it('objectMemo makes one promise per object, not per equal-looking object', async () => {
    let made = 0;
    const get = objectMemo(async (o: { n: number }) => (made += 1, o.n * 2));
    const a = { n: 1 };
    expect(await Promise.all([get(a), get(a), get({ n: 1 })])).toEqual([2, 2, 2]);
    expect(made).toBe(2);
  });

  it('answerEachPairOnce asks once per (workspace, id) and answers every query in order', async () => {
    const asked: string[] = [];
    const qs = [{ id: 'a', workspace: '/w' }, { id: 'a', workspace: '/v' }, { id: 'a', workspace: '/w' }, { id: 'b', workspace: '/w' }];
    const got = await answerEachPairOnce(qs, async (q) => {
      asked.push(`${q.workspace}:${q.id}`);
      return `${q.id}@${q.workspace}`;
    });
    expect(got).toEqual(['a@/w', 'a@/v', 'a@/w', 'b@/w']);
    expect(asked).toEqual(['/w:a', '/v:a', '/w:b']);
  });

  it('verifyCanonical answers in order, non-ids false without reaching the rule, the workspace defaulted', async () => {
    const seen: unknown[] = [];
    const got = await verifyCanonical(
      [{ id: 'A' }, { id: '../x' }, { id: 'b', workspace: '/w2' }],
      '/w',
      (id) => (id.includes('/') ? null : id.toLowerCase()),
      async (batch) => {
        seen.push(batch);
        return batch.map((q) => q.id === 'a');
      },
    );
    expect(got).toEqual([true, false, false]);
    expect(seen).toEqual([[{ id: 'a', workspace: '/w' }, { id: 'b', workspace: '/w2' }]]);
    let called = false;
    expect(await verifyCanonical([{ id: '../x' }], '/w', () => null, async () => ((called = true), []))).toEqual([false]);
    expect(called).toBe(false);
  });
});
