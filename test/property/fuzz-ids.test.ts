// A small sample of the hostile-id property (the fuzz run does 10 000): no mutation ever, no fs call for an implausible id.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type IdWorld, buildIdWorld, checkHostileIds } from '../helpers/fault-ids-property.js';

let world: IdWorld;
beforeAll(async () => {
  world = await buildIdWorld();
});
afterAll(async () => {
  await world.dispose();
});

describe('hostile ids through every adapter (property, sample)', () => {
  it('never mutate anything, and an implausible id makes no filesystem call', async () => {
    await checkHostileIds(world, 200);
  });
});
