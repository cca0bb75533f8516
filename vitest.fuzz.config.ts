import { defineConfig } from 'vitest/config';

// `npm run fuzz`: the fast-check properties of test/fuzz at scale (MAM_FUZZ_RUNS cases each, default 10 000) and the
// full fault-injection sweep. The same properties run with a small sample in `npm test` (test/property/fuzz-*.test.ts).
const runs = Number.parseInt(process.env['MAM_FUZZ_RUNS'] ?? '', 10);

export default defineConfig({
  test: {
    env: { MAM_FUZZ_RUNS: String(Number.isSafeInteger(runs) && runs > 0 ? runs : 10_000) },
    pool: 'forks',
    include: ['test/fuzz/**/*.fuzz.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
