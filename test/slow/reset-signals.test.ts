// The slow tier's run of test/integration/reset-signals.test.ts: SIGTERM, SIGINT and SIGHUP during a reset (MAM_TEST_TIER=slow).
import '../integration/reset-signals.test.js';
