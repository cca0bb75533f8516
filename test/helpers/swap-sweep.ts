// Sweeps of the swap attack shared by the npm-test sample and the fuzz run.
import { SWAP_LEVELS, type SwapAgent, swapAtCallTry } from './swap-scenarios.js';

/** Every (level, k) with k stepping by `stride` until the purge made fewer calls; the victim files lost and tries made. */
export async function sweepSwapAtCall(agent: SwapAgent, stride: number, levels: readonly number[] = [...Array(SWAP_LEVELS[agent]).keys()]): Promise<{ lost: string[]; tries: number; swappedResidual: number }> {
  const lost: string[] = [];
  let tries = 0;
  let swappedResidual = 0;
  for (const level of levels) {
    for (let k = 1; ; k += stride) {
      const t = await swapAtCallTry(agent, level, k);
      tries++;
      lost.push(...t.lost.map((l) => `level ${level} k ${k}: ${l}`));
      if (t.residual.some((r) => r.includes('a directory was swapped during removal'))) swappedResidual++;
      if (k > t.calls) break;
    }
  }
  return { lost, tries, swappedResidual };
}
