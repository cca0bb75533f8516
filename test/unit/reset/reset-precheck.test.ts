import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ResetPlanner, resetSpecPath } from '../../../src/reset/index.js';
import { liveMarkerText, makeRow, resetWorkspace, specEntry, treeSnapshot, UA, UB, writeRows } from '../../helpers/reset-kit.js';

let w: Awaited<ReturnType<typeof resetWorkspace>>;
let mam: string;
beforeEach(async () => {
  w = await resetWorkspace();
  mam = join(w.ws, '.mam');
  await writeRows(w.ws, [makeRow('reviewer-claude-01', 'claude', w.ws, { ownId: UA })]);
});
afterEach(async () => {
  await w.dispose();
});

async function refusedChangingNothing(env: Record<string, string> = {}): Promise<string> {
  const before = await treeSnapshot(mam);
  const planner = new ResetPlanner(w.ws);
  const pre = await planner.precheck({ callerEnv: env });
  const run = await planner.run({ yes: true, callerEnv: env });
  expect(await treeSnapshot(mam)).toEqual(before);
  expect(pre.kind).toBe('refused');
  expect(run.exitCode).toBe(1);
  expect(run.kind).toBe('refused');
  return pre.kind === 'refused' ? pre.message : '';
}

describe('precheck (§5.2-2, D4): every refusal changes nothing', () => {
  it('refuses an open job of a target, naming the job and the command that closes it', async () => {
    await mkdir(join(mam, 'jobs'));
    await writeFile(join(mam, 'jobs', 'job78a.json'), JSON.stringify({ job_id: 'job78a', agent_session: 'herdr:reviewer-claude-01', status: 'running' }));
    const msg = await refusedChangingNothing();
    expect(msg).toContain('job78a');
    expect(msg).toContain('close --job job78a --request cancelled');
  });

  it('ignores finished jobs and jobs of other sessions', async () => {
    await mkdir(join(mam, 'jobs'));
    await writeFile(join(mam, 'jobs', 'job78b.json'), JSON.stringify({ job_id: 'job78b', agent_session: 'herdr:reviewer-claude-01', status: 'completed' }));
    await writeFile(join(mam, 'jobs', 'job78c.json'), JSON.stringify({ job_id: 'job78c', agent_session: 'herdr:someone-else', status: 'running' }));
    expect((await new ResetPlanner(w.ws).precheck({ callerEnv: {} })).kind).toBe('ok');
  });

  it('refuses a live loop marker and a live update marker naming the pid; stale markers do not refuse', async () => {
    const live = await liveMarkerText();
    await writeFile(join(mam, 'loop-guard-active'), live);
    const loopMsg = await refusedChangingNothing();
    expect(loopMsg).toContain('loop');
    expect(loopMsg).toContain(String(process.pid));
    await unlink(join(mam, 'loop-guard-active'));
    await writeFile(join(mam, 'update-in-progress'), live);
    const updMsg = await refusedChangingNothing();
    expect(updMsg).toContain('update');
    expect(updMsg).toContain(String(process.pid));
    await writeFile(join(mam, 'loop-guard-active'), 'pid=999999\nlstart=Thu Jan 1 00:00:00 1970\n');
    await writeFile(join(mam, 'update-in-progress'), 'pid=999999\nlstart=Thu Jan 1 00:00:00 1970\n');
    expect((await new ResetPlanner(w.ws).precheck({ callerEnv: {} })).kind).toBe('ok');
    const before = await treeSnapshot(mam);
    expect((await new ResetPlanner(w.ws).run({ dryRun: true, callerEnv: {} })).exitCode).toBe(0);
    expect(await treeSnapshot(mam)).toEqual(before);
  });

  it('refuses when the caller is one of the targets', async () => {
    const msg = await refusedChangingNothing({ CLAUDE_CODE_SESSION_ID: UA });
    expect(msg).toContain('you are reviewer-claude-01, one of the targets');
    expect((await new ResetPlanner(w.ws).precheck({ callerEnv: { CLAUDE_CODE_SESSION_ID: UB } })).kind).toBe('ok');
  });

  it('refuses a saved spec with an unknown agent and leaves it byte-identical', async () => {
    const text = JSON.stringify({ version: 1, workspace: w.ws, written_at: '2026-10-29T00:00:00Z', agents: [specEntry('reviewer-claude-01', 'claude', UA), specEntry('reviewer-bad-01', 'not-an-agent', UB)] });
    await writeFile(resetSpecPath(w.ws), text);
    const msg = await refusedChangingNothing();
    expect(msg).toContain('unknown agent');
    expect(msg).toContain('check it, then remove it by hand');
  });

  it('without --yes off a terminal exits 3 before touching anything', async () => {
    const before = await treeSnapshot(mam);
    await writeFile(join(mam, 'loop-guard-active'), await liveMarkerText());
    const snap = await treeSnapshot(mam);
    const out = await new ResetPlanner(w.ws).run({ interactive: false });
    expect(out.exitCode).toBe(3);
    expect(out.message).toContain('not a terminal');
    expect(await treeSnapshot(mam)).toEqual(snap);
    expect(Object.keys(before)).not.toContain('reset-spec.json');
  });
});

describe('dry run and confirmation', () => {
  it('--dry-run lists targets with every field, skipped rows with reasons and orchestrators, and changes nothing', async () => {
    const { UORC } = await import('../../helpers/reset-kit.js');
    await writeRows(w.ws, [
      makeRow('reviewer-claude-01', 'claude', w.ws, { role: 'planner,reviewer', ownId: UA, server: 'srv-main', label: 'lbl-main' }),
      makeRow('creator-claude-wt', 'claude', w.wt, { ownId: UB }),
      makeRow('stopped-codex-01', 'codex', w.ws, { status: 'stopped' }),
    ], [UORC]);
    const before = await treeSnapshot(mam);
    const out = await new ResetPlanner(w.ws).run({ dryRun: true, callerEnv: {} });
    expect(out.exitCode).toBe(0);
    expect(await treeSnapshot(mam)).toEqual(before);
    for (const s of ['target: reviewer-claude-01', 'agent=claude', 'role=planner,reviewer', 'herdr_server=srv-main', 'herdr_workspace=lbl-main', `old_id=${UA}`, 'old_created_at=2026-10-01T00:00:00Z', 'skip: stopped-codex-01 (status stopped)', `orchestrator ${UORC} (not a row; never reset)`]) {
      expect(out.message).toContain(s);
    }
    expect(out.message).toMatch(/skip: creator-claude-wt \(not the control root/);
  });

  it('an interactive run without --yes asks, and a "no" (or no way to ask) refuses with nothing touched', async () => {
    const before = await treeSnapshot(mam);
    expect((await new ResetPlanner(w.ws).run({ interactive: true, callerEnv: {} })).exitCode).toBe(1);
    let asked = 0;
    const out = await new ResetPlanner(w.ws).run({ interactive: true, callerEnv: {}, confirm: async () => (asked++, false) });
    expect(asked).toBe(1);
    expect(out.exitCode).toBe(1);
    expect(await treeSnapshot(mam)).toEqual(before);
  });
});
