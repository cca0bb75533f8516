// `mam reset --yes` (the sources through tsx) SIGKILLed after 30 random delays within its run's measured duration, each
// rerun to completion: the kills land inside steps too. The seed is drawn (MAM_TEST_SEED replays one) and printed with
// every failure.
import { describeResetCrashRandom } from '../helpers/reset-crash-random.js';

describeResetCrashRandom({ cycles: 30, instant: 'time', seed: Date.now() % 2 ** 31, timeoutMs: 600_000 });
