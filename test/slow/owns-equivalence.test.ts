// The slow tier's run of test/property/owns-equivalence.property.test.ts at its full case counts (MAM_TEST_TIER=slow).
import '../property/owns-equivalence.property.test.js';
