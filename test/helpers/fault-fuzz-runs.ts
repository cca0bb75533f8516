// How many cases each fuzz property runs: MAM_FUZZ_RUNS (set by vitest.fuzz.config.ts, default 10 000).
const given = Number.parseInt(process.env['MAM_FUZZ_RUNS'] ?? '', 10);

/** Cases per property in the fuzz run. */
export const FUZZ_RUNS = Number.isSafeInteger(given) && given > 0 ? given : 10_000;
