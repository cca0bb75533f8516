// The reset fault sweep at every step (the slow tier; `npm test` runs one n of every kind of step, see
// test/integration/fault-reset.test.ts): one n of every step group, codes rotating, plus every code at the first and the
// last n, over claude + codex; and four pinned steps over opencode + agy + hermes. The fake herdr is answered in this
// process (the same implementation as its executable, which npm test proves once per scenario).
import { describe, expect, it } from 'vitest';
import type { FaultErrno } from '../../src/testing/fs/recording-file-system.js';
import { RESET_FAULT_CODES, everyStepPlan, failOnce, faultCase, faultedResetRun, stepGroups, useFaultReset } from '../helpers/fault-reset.js';
import { CLAUDE_CODEX, OPENCODE_AGY_HERMES } from '../helpers/fault-reset-scenarios.js';

describe('reset under injected filesystem faults (every step)', () => {
  const use = useFaultReset(CLAUDE_CODEX, 'in-process', true);

  it('a clean reset ends done', () => {
    expect(use.clean().problems).toEqual([]);
  });

  // The plan runs in four quarters, each its own test with its own limit: every case still runs once, a loaded machine
  // does not fail the lot on one limit.
  const quarters = [0, 1, 2, 3] as const;
  it.each(quarters)('one n of every step (codes rotating) and every code at the first and last n, quarter %i: returns, shows every leftover, a rerun completes', async (q) => {
    const plan = everyStepPlan(use.clean()).filter((_, i) => i % quarters.length === q);
    expect(plan.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const [n, code] of plan) problems.push(...(await faultedResetRun(use.kit(), use.clean(), n, code)));
    expect(problems).toEqual([]);
  }, 300_000);

  it('the quarters together cover every step group and every code at the first and last n', () => {
    const plan = everyStepPlan(use.clean());
    for (const group of stepGroups(use.clean())) expect(plan.some(([n]) => group.includes(n))).toBe(true);
    for (const n of [1, use.clean().mutations]) for (const code of RESET_FAULT_CODES) expect(plan).toContainEqual([n, code]);
  });
});

describe('reset of opencode + agy + hermes under injected filesystem faults (four steps, one test each)', () => {
  const use = useFaultReset(OPENCODE_AGY_HERMES);

  const cases: Array<[string, FaultErrno, (m: { op: string; path: string }) => boolean]> = [
    ['the first mutation', 'EACCES', () => true],
    ['the agy conversation unlink', 'EBUSY', (m) => m.op === 'unlink' && m.path.includes('/antigravity-cli/conversations/')],
    ['an id-order marker release', 'EIO', (m) => m.op === 'unlink' && m.path.includes('/.mam/id-order/')],
    ['the loop guard release (last mutation)', 'ENOSPC', (m) => m.op === 'unlink' && m.path.endsWith('/.mam/loop-guard-active')],
  ];
  it.each(cases)('%s failing with %s: returns, shows every leftover, a rerun completes', async (at, code, pick) => {
    const { problems } = await faultCase(use.kit(), failOnce(code, pick), `${at} ${code}`);
    expect(problems).toEqual([]);
  }, 180_000);
});
