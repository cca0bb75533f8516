// Fault injection over a full reset (live fake agents, the fake herdr answered in this process): the n-th filesystem
// mutation fails with EACCES / EBUSY / ENOSPC / EIO; the run still returns, every leftover (an old conversation on
// disk, a target not recreated, no new id recorded) shows in its table as a step not done (or there is no table and
// nothing was touched), and a rerun without faults ends in the state of a clean reset. `npm test` takes one n of every
// kind of step (codes rotating) and one case through the fake herdr executable; test/slow/fault-reset.test.ts takes one n
// of every step with every code at the first and last n, and test/fuzz/fault-reset.fuzz.ts every n with every code.
// SQLite writes (the registry mirror, the lock, agent databases) do not go through the FileSystemPort and are not
// injected here.
import { describe, expect, it } from 'vitest';
import { everyKindPlan, failOnce, faultCase, faultedResetRun, stepGroups, useFaultReset, withKit } from '../helpers/fault-reset.js';
import { CLAUDE_CODEX, OPENCODE_AGY_HERMES } from '../helpers/fault-reset-scenarios.js';

describe('reset under injected filesystem faults: one n of every kind of step', () => {
  const use = useFaultReset(CLAUDE_CODEX, 'in-process', true);

  it('a clean reset ends done and counts its mutations', () => {
    expect(use.clean().problems).toEqual([]);
    // Spec, guard, registry updates, two purges, the id-order gate: every kind of write the reset makes.
    expect(use.clean().mutations).toBeGreaterThanOrEqual(20);
    expect(use.clean().ops.some((o) => o.includes('/.claude/'))).toBe(true);
    expect(use.clean().ops.some((o) => o.includes('/.codex/'))).toBe(true);
  });

  it('one n of every kind of step (codes rotating): returns, shows every leftover, a rerun completes', async () => {
    const plan = everyKindPlan(use.clean());
    // Fewer cases than steps, yet every kind of write: the registry, the spec, each agent's purge, the guard.
    expect(plan.length).toBeLessThan(stepGroups(use.clean()).length);
    for (const part of ['agent-sessions.yaml', 'reset-spec.json', '/.claude/', '/.codex/', 'loop-guard-active']) {
      expect(plan.some(([n]) => (use.clean().ops[n - 1] ?? '').includes(part)), part).toBe(true);
    }
    const problems: string[] = [];
    for (const [n, code] of plan) problems.push(...(await faultedResetRun(use.kit(), use.clean(), n, code)));
    expect(problems).toEqual([]);
  }, 240_000);

  // The same sandbox, reached through the fake herdr executable (the transport of a real run) and the real process table.
  it("through the fake herdr executable: claude's transcript removal failing with EBUSY returns, shows the leftover, a rerun completes", async () => {
    const { problems } = await withKit(use.kit(), { herdr: 'executable' }, () =>
      faultCase(use.kit(), failOnce('EBUSY', (m) => m.op === 'unlink' && m.path.includes('/.claude/projects/')), 'claude transcript unlink (executable herdr)'),
    );
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('reset of opencode + agy + hermes under an injected filesystem fault', () => {
  const use = useFaultReset(OPENCODE_AGY_HERMES);

  // The other three steps of this scenario (the first mutation, a marker's release, the guard's) run in the slow tier.
  it('the agy conversation unlink failing with EBUSY: returns, shows every leftover, a rerun completes', async () => {
    const { problems } = await faultCase(use.kit(), failOnce('EBUSY', (m) => m.op === 'unlink' && m.path.includes('/antigravity-cli/conversations/')), 'agy unlink EBUSY');
    expect(problems).toEqual([]);
  }, 120_000);
});
