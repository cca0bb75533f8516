// Random trees with links (and candidates through them, outside, or of another root's name): no removal ever leaves
// the resolved root, and everything outside it stays byte-identical. FUZZ_RUNS cases (the sample is in paths.property).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkConfinement } from '../helpers/fs-confinement.js';
import { FUZZ_RUNS } from '../helpers/fault-fuzz-runs.js';
import { worldArb } from '../helpers/fs-trees.js';

describe(`confined removal (fuzz, ${FUZZ_RUNS} cases)`, () => {
  it('never mutates outside the resolved root', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (spec) => {
        await checkConfinement(spec);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });
});
