// A small sample of the herdr-output property (the fuzz run does 10 000): every operation answers a HerdrResult, never throws.
import { describe, it } from 'vitest';
import { checkHerdrOutputs } from '../helpers/fault-herdr-property.js';

describe('random herdr outputs (property, sample)', () => {
  it('every HerdrCli operation answers a result union and never throws', async () => {
    await checkHerdrOutputs(300);
  });
});
