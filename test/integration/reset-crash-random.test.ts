// `mam reset --yes` (the built bin) SIGKILLed at three seeded instants of its run, each rerun to completion. The 30-cycle
// run at random delays lives in test/slow/reset-crash-random.test.ts (npm run test:slow).
import { describeResetCrashRandom } from '../helpers/reset-crash-random.js';

describeResetCrashRandom({ cycles: 3, instant: 'line', seed: 20261205, timeoutMs: 180_000 });
