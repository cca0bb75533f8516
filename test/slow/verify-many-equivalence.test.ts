// The slow tier's run of test/integration/verify-many-equivalence.test.ts at its full case counts (MAM_TEST_TIER=slow).
import '../integration/verify-many-equivalence.test.js';
