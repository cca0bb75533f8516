// The full fault sweep over a reset (claude + codex, live fake agents): every n in 1..N (N = mutations of a clean
// reset) with every errno; the run returns, every leftover shows in its table, a rerun without faults completes.
// Twice: with every id recorded, and with codex's id taken off its row first (the reset captures it before the stop
// and records it into the spec). About 4 × N resets and as many reruns each: 5-10 minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CleanReset, type FaultResetKit, RESET_FAULT_CODES, buildFaultReset, cleanResetRun, faultedResetRun } from '../helpers/fault-reset.js';

describe.each([
  ['every id recorded', false],
  ["codex's id not recorded (captured before the stop, recorded into the spec)", true],
])('reset, %s: every mutation × every fault', (_label, unrecorded) => {
  let kit: FaultResetKit;
  let clean: CleanReset;
  beforeAll(async () => {
    kit = await buildFaultReset({ unrecorded });
    clean = await cleanResetRun(kit);
  });
  afterAll(async () => {
    await kit?.dispose();
  });

  it('returns, shows every leftover, and a rerun completes', async () => {
    expect(clean.problems).toEqual([]);
    const problems: string[] = [];
    for (let n = 1; n <= clean.mutations; n += 1) {
      for (const code of RESET_FAULT_CODES) problems.push(...(await faultedResetRun(kit, clean, n, code)));
    }
    expect(problems).toEqual([]);
  });
});
