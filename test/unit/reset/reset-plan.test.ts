import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realpathSync } from 'node:fs';
import { ResetPlanner } from '../../../src/reset/index.js';
import { makeRow, resetWorkspace, UA, UB, UC, UD, UORC, writeRows } from '../../helpers/reset-kit.js';

let w: Awaited<ReturnType<typeof resetWorkspace>>;
beforeEach(async () => {
  w = await resetWorkspace();
});
afterEach(async () => {
  await w.dispose();
});

describe('ResetPlanner.plan (§5.2-1)', () => {
  it('selects running control-root rows (a symlinked cwd counts), skips the rest with reasons, lists orchestrators', async () => {
    await writeRows(w.ws, [
      makeRow('reviewer-claude-01', 'claude', w.ws, { role: 'planner,reviewer', ownId: UA, server: 'srv1', label: 'lbl1' }),
      makeRow('reviewer-grok-01', 'grok', w.sym, { ownId: UB, label: 'lbl2' }),
      makeRow('creator-claude-wt', 'claude', w.wt, { role: 'creator', ownId: UC }),
      makeRow('stopped-codex-01', 'codex', w.ws, { status: 'stopped', ownId: UD }),
      makeRow('dead-hermes-01', 'hermes', w.ws, { status: 'terminated' }),
    ], [UORC]);
    const plan = await new ResetPlanner(w.ws).plan();
    expect(plan.targets.map((t) => t.name)).toEqual(['reviewer-claude-01', 'reviewer-grok-01']);
    expect(plan.targets[0]).toEqual({ name: 'reviewer-claude-01', agent: 'claude', role: 'planner,reviewer', herdrServer: 'srv1', herdrWorkspace: 'lbl1', oldId: UA, oldCreatedAt: '2026-10-01T00:00:00Z' });
    const skipped = Object.fromEntries(plan.skipped.map((s) => [s.name, s.reason]));
    expect(skipped['creator-claude-wt']).toContain('not the control root');
    expect(skipped['stopped-codex-01']).toBe('status stopped');
    expect(skipped['dead-hermes-01']).toBe('status terminated');
    expect(plan.orchestrators).toEqual([UORC]);
    expect(plan.errors).toEqual([]);
  });

  it('reports a running control-root row with an empty role or an unknown agent as an error, and the precheck refuses', async () => {
    await writeRows(w.ws, [
      makeRow('bad-role-claude', 'claude', w.ws, { role: '', ownId: UA }),
      { name: 'mystery-row', status: 'running', role: 'reviewer', agent: 'not-an-agent', pane: { cwd: w.ws, pid: 123, cmd: 'bash' } },
    ]);
    const planner = new ResetPlanner(w.ws);
    const plan = await planner.plan();
    expect(plan.errors.map((e) => e.name)).toEqual(['bad-role-claude', 'mystery-row']);
    expect(plan.targets).toEqual([]);
    const pre = await planner.precheck({ callerEnv: {} });
    expect(pre.kind).toBe('refused');
    if (pre.kind !== 'refused') return;
    expect(pre.message).toContain('bad-role-claude');
    expect(pre.message).toContain('mystery-row');
    expect(pre.message).toContain('unknown agent');
  });

  it('defaults a missing herdr workspace label to the workspace base name', async () => {
    const row = makeRow('reviewer-claude-01', 'claude', w.ws, { ownId: UA });
    delete (row as Record<string, unknown>)['herdr_workspace'];
    await writeRows(w.ws, [row]);
    const plan = await new ResetPlanner(w.ws).plan();
    expect(plan.targets[0]?.herdrWorkspace).toBe('ws');
    expect(realpathSync(w.sym)).toBe(realpathSync(w.ws));
  });
});
