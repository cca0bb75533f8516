// Random herdr outputs through every HerdrCli operation: always a HerdrResult union, never a throw.
import { describe, it } from 'vitest';
import { checkHerdrOutputs } from '../helpers/fault-herdr-property.js';
import { FUZZ_RUNS } from '../helpers/fault-fuzz-runs.js';

describe(`random herdr outputs (fuzz, ${FUZZ_RUNS} cases)`, () => {
  it('every HerdrCli operation answers a result union and never throws', async () => {
    await checkHerdrOutputs(FUZZ_RUNS);
  });
});
