// The fault matrix swept (slow tier): for every agent and every filesystem fault (read-only, ENOSPC, EIO), the port
// fails from each mutation on (1 to 8; past an agent's last mutation only its SQLite writes fail), and every law of
// test/helpers/fault-matrix.ts holds: an honest kind and exit code, the cause named, and a rerun that finishes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_AGENTS, type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';
import { type MatrixFault, faultMatrixCase } from '../helpers/fault-matrix.js';

const FS_FAULTS: readonly MatrixFault[] = ['read-only', 'no-space', 'io-error'];

describe.each(FAULT_AGENTS)('fault matrix sweep: %s', (agent) => {
  let stage: FaultStage;
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('every filesystem fault from every mutation on: honest outcome, rerun finishes', async () => {
    const problems: string[] = [];
    for (const fault of FS_FAULTS) for (let from = 1; from <= 8; from += 1) problems.push(...(await faultMatrixCase(stage, fault, { from })).problems);
    expect(problems).toEqual([]);
  }, 600_000);
});
