// The slow tier's run of test/integration/registry-crash.test.ts at its exhaustive size (MAM_TEST_TIER=slow, see test/helpers/tier.ts).
import '../integration/registry-crash.test.js';
