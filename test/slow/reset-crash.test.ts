// The slow tier's run of test/integration/reset-crash.test.ts: the reset killed at each of five herdr calls (MAM_TEST_TIER=slow).
import '../integration/reset-crash.test.js';
