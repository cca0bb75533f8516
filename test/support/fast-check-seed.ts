// vitest setupFile of `npm test`: every fast-check property draws from one fixed seed, so a run's verdict is the same on
// every run (MAM_TEST_SEED replays another; a failure prints the seed and path either way). The slow tier and the fuzz
// run draw fresh seeds, which is where new cases are explored.
import fc from 'fast-check';

const given = Number.parseInt(process.env['MAM_TEST_SEED'] ?? '', 10);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number.isSafeInteger(given) ? given : 20261205 });
