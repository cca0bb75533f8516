// Fault injection over a full reset (claude + codex, live fake agents, the fake herdr executable): the n-th filesystem
// mutation fails with EACCES / EBUSY / ENOSPC / EIO; the run still returns, every leftover (an old conversation on
// disk, a target not recreated, no new id recorded) shows in its table as a step not done (or there is no table and
// nothing was touched), and a rerun without faults ends in the state of a clean reset. One reset costs ~2-4 s here
// (every herdr call is a process), so `npm test` takes one n of every step (an atomic write's temp write and rename are
// one step, so are one purge's removals), codes rotating, plus every code at the first and last n; the fuzz run
// (test/fuzz/fault-reset.fuzz.ts) sweeps every n with every code. The opencode + agy + hermes sandbox (three
// post-discovered agents through the id-order gate) gets four cases here, each pinned to its step: the first mutation,
// agy's conversation removal, a gate marker's release, and the last mutation. SQLite writes (the registry mirror, the lock, agent
// databases) do not go through the FileSystemPort and are not injected here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultErrno } from '../../src/testing/fs/recording-file-system.js';
import { type CleanReset, type FaultResetKit, RESET_FAULT_CODES, buildFaultReset, cleanResetRun, failOnce, faultCase, faultedResetRun, stepGroups } from '../helpers/fault-reset.js';
import { OPENCODE_AGY_HERMES } from '../helpers/fault-reset-scenarios.js';

/** One n of every step group (codes rotating), plus every code at the first and the last n. */
function faultPlan(clean: CleanReset): Array<[number, FaultErrno]> {
  const last = clean.mutations;
  const plan: Array<[number, FaultErrno]> = [];
  stepGroups(clean).forEach((group, g) => {
    const n = group[g % group.length] ?? group[0] ?? 1;
    plan.push([n, RESET_FAULT_CODES[g % RESET_FAULT_CODES.length] ?? 'EIO']);
  });
  for (const n of [1, last]) for (const code of RESET_FAULT_CODES) if (!plan.some(([m, c]) => m === n && c === code)) plan.push([n, code]);
  return plan;
}

describe('reset under injected filesystem faults (sampled)', () => {
  let kit: FaultResetKit;
  let clean: CleanReset;
  beforeAll(async () => {
    kit = await buildFaultReset();
    clean = await cleanResetRun(kit);
  }, 60_000);
  afterAll(async () => {
    await kit?.dispose();
  });

  it('a clean reset ends done and counts its mutations', () => {
    expect(clean.problems).toEqual([]);
    // Spec, guard, registry updates, two purges, the id-order gate: every kind of write the reset makes.
    expect(clean.mutations).toBeGreaterThanOrEqual(20);
    expect(clean.ops.some((o) => o.includes('/.claude/'))).toBe(true);
    expect(clean.ops.some((o) => o.includes('/.codex/'))).toBe(true);
  });

  // The plan runs in four quarters, each its own test with its own limit (one reset is ~2-4 s, a whole plan ~180 s on
  // an idle machine): every case still runs once, a loaded machine no longer fails the lot on one limit.
  const quarters = [0, 1, 2, 3] as const;
  it.each(quarters)('one n of every step (codes rotating) and every code at the first and last n, quarter %i: returns, shows every leftover, a rerun completes', async (q) => {
    const plan = faultPlan(clean).filter((_, i) => i % quarters.length === q);
    expect(plan.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const [n, code] of plan) problems.push(...(await faultedResetRun(kit, clean, n, code)));
    expect(problems).toEqual([]);
  }, 180_000);

  it('the quarters together cover every step group and every code at the first and last n', () => {
    const plan = faultPlan(clean);
    for (const group of stepGroups(clean)) expect(plan.some(([n]) => group.includes(n))).toBe(true);
    for (const n of [1, clean.mutations]) for (const code of RESET_FAULT_CODES) expect(plan).toContainEqual([n, code]);
  });
});

describe('reset of opencode + agy + hermes under injected filesystem faults (four steps, one test each)', () => {
  let kit: FaultResetKit;
  beforeAll(async () => {
    kit = await buildFaultReset(OPENCODE_AGY_HERMES);
  }, 60_000);
  afterAll(async () => {
    await kit?.dispose();
  });

  const cases: Array<[string, FaultErrno, (m: { op: string; path: string }) => boolean]> = [
    ['the first mutation', 'EACCES', () => true],
    ['the agy conversation unlink', 'EBUSY', (m) => m.op === 'unlink' && m.path.includes('/antigravity-cli/conversations/')],
    ['an id-order marker release', 'EIO', (m) => m.op === 'unlink' && m.path.includes('/.mam/id-order/')],
    ['the loop guard release (last mutation)', 'ENOSPC', (m) => m.op === 'unlink' && m.path.endsWith('/.mam/loop-guard-active')],
  ];
  // Each case its own test with its own limit (one case is ~20-30 s idle, more under load).
  it.each(cases)('%s failing with %s: returns, shows every leftover, a rerun completes', async (at, code, pick) => {
    const { problems } = await faultCase(kit, failOnce(code, pick), `${at} ${code}`);
    expect(problems).toEqual([]);
  }, 120_000);
});
