// The slow tier's run of test/integration/fault-purge.test.ts: every n of every agent's purge (MAM_TEST_TIER=slow).
import '../integration/fault-purge.test.js';
