import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkConfinement } from '../helpers/fs-confinement.js';
import { worldArb } from '../helpers/fs-trees.js';

describe('confined removal (property)', () => {
  it('never mutates outside the resolved root, and leaves everything outside byte-identical', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (spec) => {
        await checkConfinement(spec);
      }),
      { numRuns: 100 },
    );
  });
});
