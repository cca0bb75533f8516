// The shared fault matrix (test/helpers/fault-matrix.ts), one case of each fault for every agent: the purge under the
// fault is honest (never `purged` / exit 0 while a byte of the id is on disk outside its mentions, the cause named), the
// dry run under an unreadable store or a missing binding exits non-zero, and a rerun without the fault finishes. The
// interruption (test/helpers/fault-interrupt.ts): one purge killed midway per agent, at the middle one of the steps where
// its disk changed, and rerun in a fresh state; the slow tier (test/slow/fault-matrix-interruptions.test.ts) runs them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_AGENTS, type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';
import { MATRIX_FAULTS, faultMatrixCase } from '../helpers/fault-matrix.js';
import { interruptionCase, interruptionPlan } from '../helpers/fault-interrupt.js';

describe.each(FAULT_AGENTS)('fault matrix: %s', (agent) => {
  let stage: FaultStage;
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it.each(MATRIX_FAULTS)('%s: the outcome says what happened, and a rerun without the fault finishes', async (fault) => {
    const report = await faultMatrixCase(stage, fault, { from: 2 });
    expect(report.problems).toEqual([]);
  });

  it('interruption: a purge killed midway is finished by a rerun in a fresh state', async () => {
    const plan = await interruptionPlan(stage);
    expect(plan.distinct.length).toBeGreaterThan(1);
    const at = plan.distinct[Math.floor(plan.distinct.length / 2)] ?? 1;
    expect(await interruptionCase(stage, at, plan)).toEqual([]);
  });
});
