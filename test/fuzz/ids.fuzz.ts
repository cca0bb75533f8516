// Hostile ids through every adapter on stages with real conversations: no mutation, no fs call for an implausible id.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type IdWorld, buildIdWorld, checkHostileIds } from '../helpers/fault-ids-property.js';
import { FUZZ_RUNS } from '../helpers/fault-fuzz-runs.js';

let world: IdWorld;
beforeAll(async () => {
  world = await buildIdWorld();
});
afterAll(async () => {
  await world.dispose();
});

describe(`hostile ids through every adapter (fuzz, ${FUZZ_RUNS} cases)`, () => {
  it('never mutate anything, and an implausible id makes no filesystem call', async () => {
    await checkHostileIds(world, FUZZ_RUNS);
  });
});
