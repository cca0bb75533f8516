// The slow tier's run of test/integration/registry-concurrency.test.ts at its exhaustive size (MAM_TEST_TIER=slow, see test/helpers/tier.ts).
import '../integration/registry-concurrency.test.js';
