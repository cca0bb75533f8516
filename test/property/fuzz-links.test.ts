// A small sample of the planted-links property (the fuzz run does more): a purge never mutates through a link or
// outside the home, whichever of a conversation's artifacts or dirs above them are links out.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkPlantedLinks, linkSites } from '../helpers/fault-links-property.js';
import { type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';

const AGENTS = ['claude', 'codex', 'opencode', 'agy'] as const;

describe.each(AGENTS)('links planted in the %s stage (property, sample)', (agent) => {
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
    // A sample: `npm run fuzz` plants links at scale.
    await checkPlantedLinks(stage, sites, 6);
  });
});
