// The slow tier's run of test/property/codex-index-answers.property.test.ts at its full case counts (MAM_TEST_TIER=slow).
import '../property/codex-index-answers.property.test.js';
