// The swap attack at scale (issue 13): at least 500 purges, each with a real swapper process swapping every directory
// level of a deep Claude or Codex tree for a link to an outside victim, through the adapters and PurgeService.purge, plus
// the full deterministic sweep (every level swapped right before every filesystem call). 0 victim files lost.
import { describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { swapTry, type SwapAgent, type SwapVia } from '../helpers/swap-scenarios.js';
import { sweepSwapAtCall } from '../helpers/swap-sweep.js';

const PER_CASE = 130;

describe('swap attack (fuzz)', () => {
  it.each([
    ['claude', 'adapter'],
    ['claude', 'service'],
    ['codex', 'adapter'],
    ['codex', 'service'],
  ] as Array<[SwapAgent, SwapVia]>)(`%s via %s: ${PER_CASE} tries with a real swapper, 0 victim files lost`, async (agent, via) => {
    const lost: string[] = [];
    for (let i = 0; i < PER_CASE; i++) lost.push(...(await swapTry(agent, via)).lost.map((l) => `try ${i}: ${l}`));
    expect(lost).toEqual([]);
  });

  it.each(['claude', 'codex'] as const)('%s: every level swapped before every filesystem call, 0 lost', async (agent) => {
    const r = await sweepSwapAtCall(agent, 1);
    expect(r.lost).toEqual([]);
  });

  it('the checked fallback (no /proc/self/fd): 60 tries with a real swapper, 0 lost', async () => {
    const lost: string[] = [];
    for (let i = 0; i < 60; i++) lost.push(...(await swapTry('claude', 'adapter', new NodeFileSystem({ procFd: false }))).lost);
    expect(lost).toEqual([]);
  });
});
