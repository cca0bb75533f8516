// Fault injection over a full purge of each agent: the n-th filesystem mutation fails with EACCES / EBUSY / ENOSPC /
// EIO; the purge still returns, every leftover is reported, nothing reported purged is still there, and a rerun
// without faults completes. `npm test` runs every code at the first n and one code at the middle and last n; the slow
// tier every n with one code (rotating) plus every code at the first and last n; the fuzz run
// (test/fuzz/fault-purge.fuzz.ts) sweeps every n with every code. The process table is an empty fake (the faults are the
// filesystem's); SQLite row deletes (codex, opencode, hermes rows) do not go through the FileSystemPort and cannot be
// injected this way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultStage, FAULT_AGENTS, buildFaultStage } from '../helpers/fault-stages.js';
import { type CleanRun, FAULT_CODES, cleanRun, faultedRun } from '../helpers/fault-sweep.js';
import { SLOW_TIER } from '../helpers/tier.js';

describe.each(FAULT_AGENTS)('purge of %s under injected filesystem faults', (agent) => {
  let stage: FaultStage;
  let clean: CleanRun;
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
    clean = await cleanRun(stage);
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('a clean purge removes everything, leaves no residual, and counts its mutations', () => {
    expect(clean.result).toMatchObject({ kind: 'purged', agent, residual: [] });
    // Hermes keeps a conversation only as rows of state.db: its purge makes no filesystem mutation to fail.
    if (agent === 'hermes') expect(clean.mutations).toBe(0);
    else expect(clean.mutations).toBeGreaterThanOrEqual(4);
  });

  it('sampled (n, code): returns, reports every leftover, and a rerun completes', async () => {
    const last = clean.mutations;
    const plan: Array<[number, (typeof FAULT_CODES)[number]]> = [];
    // npm test: every code at the first n, one code (rotating) at the middle and the last n; the slow tier
    // (test/slow/fault-purge.test.ts): every n with one code (rotating) plus every code at the first and last n.
    const middle = Math.ceil(last / 2);
    for (let n = 1; n <= last; n += 1) {
      if (!SLOW_TIER && n !== 1 && n !== last && n !== middle) continue;
      const codes = n === 1 || (SLOW_TIER && n === last) ? FAULT_CODES : [FAULT_CODES[n % FAULT_CODES.length] ?? 'EIO'];
      for (const code of codes) plan.push([n, code]);
    }
    const problems: string[] = [];
    for (const [n, code] of plan) problems.push(...(await faultedRun(stage, clean, n, code)));
    // Regression (opencode legacy storage): a failed part-folder removal no longer hides the part behind a removed message folder.
    expect(problems).toEqual([]);
  });
});
