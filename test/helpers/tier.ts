// Which tier runs this file: `npm test` (fast: every law once) or `npm run test:slow` (vitest.slow.config.ts sets
// MAM_TEST_TIER=slow: the same scenarios at their exhaustive size). A file the slow tier re-runs imports the fast file,
// whose sizes come from here.
export const SLOW_TIER = process.env['MAM_TEST_TIER'] === 'slow';

/** `fast` in npm test, `slow` in the slow tier. */
export function byTier<T>(fast: T, slow: T): T {
  return SLOW_TIER ? slow : fast;
}

/**
 * A seeded PRNG (mulberry32) for a test's random instants and choices: the seed is MAM_TEST_SEED when given, else
 * `seed`; a failing run prints it (put `seedNote` in the assertion message) and replays with MAM_TEST_SEED=<seed>.
 */
export function seededRandom(seed: number): { random: () => number; seed: number; seedNote: string } {
  const given = Number.parseInt(process.env['MAM_TEST_SEED'] ?? '', 10);
  const used = Number.isSafeInteger(given) ? given : seed;
  let a = used >>> 0;
  const random = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, seed: used, seedNote: `seed ${used} (replay: MAM_TEST_SEED=${used})` };
}
