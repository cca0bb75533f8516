// A purge redirected outside the agent's roots by a concurrent swap (issue 13: 11 of 85 purges deleted outside files).
// A real swapper process swaps every directory level of a deep conversation tree (Claude file-history/<id>/…, the <id>
// dirs, the tmp root's claude-0/<key>/<id>/…, Codex sessions/YYYY/MM/DD) for a link to an outside victim dir while the
// purge runs, through the adapters and through PurgeService.purge; a deterministic twin swaps one level right before the
// k-th filesystem call (the swap at every point between syscalls). The removal is fd-anchored, so no victim file is ever
// lost. On the code before the fix both fail (the sweep deletes victim files at 9 of 208 Claude points). A sample here;
// `npm run fuzz` runs 500+ process tries and the full sweep (test/fuzz/swap-attack.fuzz.ts).
import { describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { REMOVAL_REASONS } from '../../src/paths/index.js';
import { swapTry, type SwapAgent, type SwapVia } from '../helpers/swap-scenarios.js';
import { sweepSwapAtCall } from '../helpers/swap-sweep.js';

const TRIES = 5;
const cases: Array<[SwapAgent, SwapVia]> = [
  ['claude', 'adapter'],
  ['claude', 'service'],
  ['codex', 'adapter'],
  ['codex', 'service'],
];

describe('a concurrent swap of a directory for a link cannot redirect a purge outside the roots', () => {
  it.each(cases)('%s via %s, real swapper process: 0 victim files lost', async (agent, via) => {
    const lost: string[] = [];
    let swaps = 0;
    for (let i = 0; i < TRIES; i++) {
      const t = await swapTry(agent, via);
      lost.push(...t.lost);
      swaps += t.swaps;
      // A residual entry that carries a reason is one a swap left, and says so.
      for (const r of t.residual) if (r.endsWith(']')) expect(r).toContain(REMOVAL_REASONS.swapped);
    }
    expect(swaps).toBeGreaterThan(0);
    expect(lost).toEqual([]);
  }, 60_000);

  it('claude, a swap right before each 4th filesystem call of the purge: 0 lost, and a swap met is reported with its reason', async () => {
    const r = await sweepSwapAtCall('claude', 4, [0, 2, 6]);
    expect(r.lost).toEqual([]);
    expect(r.swappedResidual).toBeGreaterThan(0);
  }, 60_000);

  it('codex, the date dir swapped right before each filesystem call: 0 lost', async () => {
    const r = await sweepSwapAtCall('codex', 1, [2]);
    expect(r.tries).toBeGreaterThan(20);
    expect(r.lost).toEqual([]);
  }, 60_000);

  it('the checked fallback (no /proc/self/fd, as on macOS) loses nothing in the sample either', async () => {
    const lost: string[] = [];
    for (let i = 0; i < 3; i++) lost.push(...(await swapTry('claude', 'adapter', new NodeFileSystem({ procFd: false }))).lost);
    expect(lost).toEqual([]);
  }, 60_000);
});
