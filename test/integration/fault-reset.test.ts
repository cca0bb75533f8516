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

  it('one n of every step (codes rotating) and every code at the first and last n: returns, shows every leftover, a rerun completes', async () => {
    const last = clean.mutations;
    const plan: Array<[number, FaultErrno]> = [];
    stepGroups(clean).forEach((group, g) => {
      const n = group[g % group.length] ?? group[0] ?? 1;
      plan.push([n, RESET_FAULT_CODES[g % RESET_FAULT_CODES.length] ?? 'EIO']);
    });
    for (const n of [1, last]) for (const code of RESET_FAULT_CODES) if (!plan.some(([m, c]) => m === n && c === code)) plan.push([n, code]);
    const problems: string[] = [];
    for (const [n, code] of plan) problems.push(...(await faultedResetRun(kit, clean, n, code)));
    expect(problems).toEqual([]);
  }, 240_000);
});

describe('reset of opencode + agy + hermes under injected filesystem faults (four steps)', () => {
  let kit: FaultResetKit;
  beforeAll(async () => {
    kit = await buildFaultReset(OPENCODE_AGY_HERMES);
  }, 60_000);
  afterAll(async () => {
    await kit?.dispose();
  });

  it('the first mutation, the agy conversation removal, a gate marker release, the last mutation: returns, shows every leftover, a rerun completes', async () => {
    const cases: Array<[string, FaultErrno, (m: { op: string; path: string }) => boolean]> = [
      ['first mutation', 'EACCES', () => true],
      ['agy conversation unlink', 'EBUSY', (m) => m.op === 'unlink' && m.path.includes('/antigravity-cli/conversations/')],
      ['id-order marker release', 'EIO', (m) => m.op === 'unlink' && m.path.includes('/.mam/id-order/')],
      ['loop guard release (last mutation)', 'ENOSPC', (m) => m.op === 'unlink' && m.path.endsWith('/.mam/loop-guard-active')],
    ];
    const problems: string[] = [];
    for (const [at, code, pick] of cases) problems.push(...(await faultCase(kit, failOnce(code, pick), `${at} ${code}`)).problems);
    expect(problems).toEqual([]);
  }, 120_000);
});
