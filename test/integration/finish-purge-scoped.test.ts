// A purge stopped part-way (the filesystem port dies at step N, as a kill leaves it) is finished by the same command,
// scoped to the same workspace, for the agents whose workspace proof the first run may have removed (Codex: the rollout
// goes first, the threads row that records the cwd last; OpenCode: the session rows go first, the legacy session file
// that records the directory last; agy: a database and its `-wal` go, the `.meta` or the cache still record it). At
// every step where dying leaves a different disk:
// - the same scoped command finishes (`purged`, no byte of the id left but in mentions; test/helpers/fault-interrupt.ts);
// - a purge scoped to ANOTHER workspace still refuses what is left (`not-in-workspace`, nothing removed), unless only
//   old copies of deleted rows are left (nothing says whose they were, and wiping them removes no live row).
// And remains that record no workspace are refused by a scoped purge with the way to finish them, which then works.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { afterInterruption, type InterruptionPlan, interruptionCase, interruptionPlan } from '../helpers/fault-interrupt.js';
import { filesHolding, matrixService, stageRoot } from '../helpers/fault-matrix.js';
import { type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';
import { byTier } from '../helpers/tier.js';

// `npm test` interrupts at the first, the middle and the last step that leaves a different disk; the slow tier
// (test/slow/finish-purge-scoped.test.ts) at every one of them.
const stepsOf = (distinct: readonly number[]): number[] =>
  byTier([...new Set([distinct[0], distinct[Math.floor(distinct.length / 2)], distinct[distinct.length - 1]])].filter((s): s is number => s !== undefined), [...distinct]);

const AGENTS = ['codex', 'opencode', 'agy'] as const;

describe.each(AGENTS)('a scoped purge stopped part-way: %s', (agent) => {
  let stage: FaultStage;
  let plan: InterruptionPlan;
  beforeAll(async () => {
    stage = await buildFaultStage(agent);
    plan = await interruptionPlan(stage);
  });
  afterAll(async () => {
    await stage.dispose();
  });
  const scoped = (workspace: string) => ({ home: stage.home, workspace, env: stage.env });

  it('the same scoped command finishes it, interrupted at every step that leaves a different disk', async () => {
    expect(plan.distinct.length).toBeGreaterThan(2);
    const problems: string[] = [];
    for (const at of stepsOf(plan.distinct)) problems.push(...(await interruptionCase(stage, at, plan)));
    expect(problems).toEqual([]);
  });

  it('a purge scoped to another workspace still refuses what is left, and removes nothing', async () => {
    const other = join(stageRoot(stage), 'ws-other');
    let refusedPartial = 0;
    for (const at of stepsOf(plan.distinct)) {
      await afterInterruption(stage, at, async () => {
        mkdirSync(other, { recursive: true });
        const svc = matrixService(stage, new NodeFileSystem());
        const dry = await svc.purge(agent, stage.id, { ...scoped(stage.workspace), dryRun: true });
        const artifacts = dry.kind === 'dry-run' ? dry.plan.artifacts : [];
        if (artifacts.length === 0) return;
        const before = filesHolding(stageRoot(stage), stage.id);
        const r = await svc.purge(agent, stage.id, scoped(other));
        const copiesOnly = artifacts.every((a) => a.kind === 'rows' && a.table === DEAD_COPIES_TABLE);
        if (copiesOnly) return;
        expect(r.kind, `${agent} interrupted at step ${at}: ${JSON.stringify(r)}`).toBe('not-in-workspace');
        expect(filesHolding(stageRoot(stage), stage.id)).toEqual(before);
        expect(await svc.adapter(agent).hasArtifacts(stage.id, scoped(stage.workspace))).toBe(true);
        // Partly purged (anything but the whole conversation) and still refused: the case a scoped purge must not widen to.
        if (!(await svc.adapter(agent).verifyArtifact(stage.id, scoped(stage.workspace)))) refusedPartial += 1;
      });
    }
    expect(refusedPartial).toBeGreaterThan(0);
  });
});

describe('remains that record no workspace', () => {
  let stage: FaultStage;
  beforeAll(async () => {
    stage = await buildFaultStage('opencode');
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('are refused by a scoped purge with the way to finish them, which finishes them', async () => {
    const plan = await interruptionPlan(stage);
    const target = { home: stage.home, workspace: stage.workspace, env: stage.env };
    const sessionFile = join(stage.home, '.local/share/opencode/storage/session/global', `${stage.id}.json`);
    let seen = 0;
    for (const at of plan.distinct) {
      await afterInterruption(stage, at, async () => {
        const svc = matrixService(stage, new NodeFileSystem());
        // Past the row delete, with the session file left: make it record no directory (an older OpenCode's file). Before
        // the row delete, the rows left record the workspace themselves (still 'here' then): not this case.
        if ((await svc.adapter('opencode').remainsBelonging?.(stage.id, target)) !== 'here') return;
        writeFileSync(sessionFile, '{}');
        if ((await svc.adapter('opencode').remainsBelonging?.(stage.id, target)) !== 'unrecorded') return;
        seen += 1;
        const r = await svc.purge('opencode', stage.id, target);
        expect(r.kind).toBe('not-in-workspace');
        expect(r.kind === 'not-in-workspace' ? r.reason : '').toContain(`without a workspace (mam purge opencode ${stage.id})`);
        const unscoped = await svc.purge('opencode', stage.id, { home: stage.home, env: stage.env });
        expect(unscoped.kind).toBe('purged');
      });
    }
    expect(seen).toBeGreaterThan(0);
  });
});
