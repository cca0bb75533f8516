// The full fault sweep: for every agent with an on-disk layout, every n in 1..N (N = mutations of a clean purge) and
// every errno, the purge returns, reports every leftover, and a rerun without faults completes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultStage, FAULT_AGENTS, buildFaultStage } from '../helpers/fault-stages.js';
import { type CleanRun, FAULT_CODES, cleanRun, faultedRun } from '../helpers/fault-sweep.js';

describe.each(FAULT_AGENTS)('purge of %s: every mutation × every fault', (agent) => {
  let stage: FaultStage;
  let clean: CleanRun;
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
    clean = await cleanRun(stage);
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('returns, reports every leftover, and a rerun completes', async () => {
    expect(clean.result).toMatchObject({ kind: 'purged', residual: [] });
    const problems: string[] = [];
    for (let n = 1; n <= clean.mutations; n += 1) {
      for (const code of FAULT_CODES) problems.push(...(await faultedRun(stage, clean, n, code)));
    }
    // Regression (opencode legacy storage): a failed part-folder removal no longer hides the part behind a removed message folder.
    expect(problems).toEqual([]);
  });
});
