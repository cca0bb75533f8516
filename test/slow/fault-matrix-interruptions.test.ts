// The interruption fault of the shared matrix swept (slow tier): every agent's purge killed at every step where dying
// leaves a different disk (step 1 and each step after the disk changed), and at the step just before each of those
// (the last step of the stretch before: the disk is the same, the work in flight is not), then rerun in a fresh state;
// the laws of test/helpers/fault-interrupt.ts hold at each. MAM_INTERRUPT_STEPS=all runs literally every port call
// (some 3,500 cases, about 20 minutes here). `npm test` runs one case per agent (test/integration/fault-matrix.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_AGENTS, type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';
import { interruptionCase, interruptionPlan } from '../helpers/fault-interrupt.js';

const EVERY_CALL = process.env['MAM_INTERRUPT_STEPS'] === 'all';

describe.each(FAULT_AGENTS)('fault matrix interruptions: %s', (agent) => {
  let stage: FaultStage;
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('killed at every step, then rerun: finished, no byte of the id left', async () => {
    const plan = await interruptionPlan(stage);
    const steps = EVERY_CALL ? Array.from({ length: plan.steps }, (_, i) => i + 1) : [...new Set(plan.distinct.flatMap((s) => [s - 1, s]))].filter((s) => s >= 1);
    expect(steps.length).toBeGreaterThan(1);
    const problems: string[] = [];
    for (const at of steps.sort((a, b) => a - b)) problems.push(...(await interruptionCase(stage, at, plan)));
    expect(problems).toEqual([]);
  }, 3_600_000);
});
