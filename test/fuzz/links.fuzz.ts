// Links planted in each agent's real stage (below its roots): a purge never mutates through a link or outside the
// agent's dir, and what the links point at stays byte-identical. Each case rebuilds the stage and runs a real purge
// (~0.2 s), so this property runs min(MAM_FUZZ_RUNS, 250) cases per agent; the 10 000-case link fuzzing is the
// confinement property over random trees (confinement.fuzz.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { FUZZ_RUNS } from '../helpers/fault-fuzz-runs.js';
import { checkPlantedLinks, linkSites } from '../helpers/fault-links-property.js';
import { type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';

const RUNS = Math.min(FUZZ_RUNS, 250);

describe.each(['claude', 'codex', 'opencode', 'agy'] as const)(`links planted in the %s stage (fuzz, ${RUNS} cases)`, (agent) => {
  let stage: FaultStage;
  let sites: string[];
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
    sites = await linkSites(stage);
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('a purge never mutates through a link or outside the agent dir', async () => {
    await checkPlantedLinks(stage, sites, RUNS);
  });
});
