// The full fault sweep over a reset (live fake agents): every n in 1..N (N = mutations of a clean reset) with every
// errno; the run returns, every leftover shows in its table, a rerun without faults completes. Over claude + codex
// twice (every id recorded; codex's id taken off its row first, so the reset captures it before the stop and records it
// into the spec), and over opencode + agy + hermes the same two ways (agy's id taken off). About 4 × N resets and as
// many reruns each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CleanReset, type FaultResetKit, RESET_FAULT_CODES, buildFaultReset, cleanResetRun, faultedResetRun } from '../helpers/fault-reset.js';
import { CLAUDE_CODEX, CLAUDE_CODEX_UNRECORDED, type FaultResetScenario, OPENCODE_AGY_HERMES, OPENCODE_AGY_HERMES_UNRECORDED } from '../helpers/fault-reset-scenarios.js';

describe.each<[string, FaultResetScenario]>([
  ['every id recorded', CLAUDE_CODEX],
  ["codex's id not recorded (captured before the stop, recorded into the spec)", CLAUDE_CODEX_UNRECORDED],
  ['opencode + agy + hermes, every id recorded', OPENCODE_AGY_HERMES],
  ["opencode + agy + hermes, agy's id not recorded (captured before the stop, recorded into the spec)", OPENCODE_AGY_HERMES_UNRECORDED],
])('reset, %s: every mutation × every fault', (_label, scenario) => {
  let kit: FaultResetKit;
  let clean: CleanReset;
  beforeAll(async () => {
    kit = await buildFaultReset(scenario);
    clean = await cleanResetRun(kit);
  });
  afterAll(async () => {
    await kit?.dispose();
  });

  it('returns, shows every leftover, and a rerun completes', async () => {
    expect(clean.problems).toEqual([]);
    const problems: string[] = [];
    for (let n = 1; n <= clean.mutations; n += 1) {
      for (const code of RESET_FAULT_CODES) {
        const found = await faultedResetRun(kit, clean, n, code);
        // Shown as found: a sweep this long should not keep its findings to its end.
        if (found.length > 0) console.error(found.join('\n'));
        problems.push(...found);
      }
    }
    expect(problems).toEqual([]);
  });
});
