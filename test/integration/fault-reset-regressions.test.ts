// Regressions the reset fault sweep found, each pinned to the step it hits (not to an n that shifts with the code):
// the run threw on a failed write (registry, spec, the spec write recording a captured id), a partial purge was reported done and never finished, a failed id pin left the
// target "created; id not recorded yet" for good, and a guard whose marker could not be removed blocked every later
// run of the process. Each case also passes the sweep's judge: the run returns, every leftover is shown, a rerun
// without faults ends in the state of a clean reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultResetKit, buildFaultReset, failOnce as once, faultCase, withKit } from '../helpers/fault-reset.js';
import { type Ran, said } from '../helpers/fault-reset-judge.js';
import { CLAUDE_CODEX_UNRECORDED } from '../helpers/fault-reset-scenarios.js';

const REGISTRY_TMP = /\/\.agent-sessions\.yaml\.[^/]+\.tmp$/;

function rowState(ran: Ran, name: string): string | undefined {
  return ran.out?.rows.find((r) => r.name === name)?.state;
}

describe('reset under a single filesystem fault: regressions', () => {
  let kit: FaultResetKit;
  beforeAll(async () => {
    kit = await buildFaultReset();
  }, 60_000);
  afterAll(async () => {
    await kit?.dispose();
  });

  it('the registry write marking the first target stopped fails: the run returns exit 1, "failed at stop"', async () => {
    const { problems, faulted } = await faultCase(kit, once('EIO', (m) => m.op === 'writeFile' && REGISTRY_TMP.test(m.path)), 'mark-stopped write');
    expect(problems).toEqual([]);
    expect(faulted.out?.exitCode, said(faulted)).toBe(1);
    expect(rowState(faulted, 'reviewer-claude-01')).toBe('failed at stop');
  }, 60_000);

  it('the spec write fails: exit 1, no table, nothing touched', async () => {
    const { problems, faulted } = await faultCase(kit, once('ENOSPC', (m) => m.op === 'writeFile' && m.path.includes('.reset-spec.json.')), 'spec write');
    expect(problems).toEqual([]);
    expect(faulted.out).toMatchObject({ exitCode: 1, kind: 'failed', rows: [] });
    expect(faulted.out?.message).toContain('no target was touched');
  }, 60_000);

  it("claude's transcript cannot be removed: not done, row kept stopped with its id, the rerun finishes the purge", async () => {
    const { problems, faulted } = await faultCase(kit, once('EBUSY', (m) => m.op === 'unlink' && m.path.includes('/.claude/projects/')), 'claude transcript unlink');
    expect(problems).toEqual([]);
    expect(rowState(faulted, 'reviewer-claude-01')).toBe('failed at stop');
    expect(faulted.trace.some((l) => l.includes('left 1 item(s) on disk'))).toBe(true);
  }, 60_000);

  it("the pin of codex's captured id fails once: onboarding pins it at the next look (harmless, exit 0)", async () => {
    // The second registry write after the id-order gate: register the row, then pin its id.
    const pin = once('EBUSY', (m, seen) => {
      const gate = seen.findIndex((s) => s.path.includes('/id-order/'));
      return gate >= 0 && m.op === 'writeFile' && REGISTRY_TMP.test(m.path) && seen.slice(gate).filter((s) => s.op === 'writeFile' && REGISTRY_TMP.test(s.path)).length === 1;
    });
    const { problems, faulted } = await faultCase(kit, pin, 'codex pin write');
    expect(problems).toEqual([]);
    expect(faulted.out?.exitCode, said(faulted)).toBe(0);
  }, 60_000);

  it('the spec cannot be removed at the end: exit 1 saying so, every target done; the rerun removes it', async () => {
    const { problems, faulted } = await faultCase(kit, once('EACCES', (m) => m.op === 'unlink' && m.path.endsWith('/.mam/reset-spec.json')), 'spec removal');
    expect(problems).toEqual([]);
    expect(faulted.out?.exitCode, said(faulted)).toBe(1);
    expect(faulted.out?.message).toContain('could not be removed');
    expect(faulted.out?.rows.map((r) => r.state)).toEqual(['done', 'done']);
  }, 60_000);

  it('the spec write recording a captured id fails (codex row with no id): "failed at stop", the rerun records it again', async () => {
    // The same sandbox, with codex's id taken off its row before each run (the rerun records the new one again).
    const recordWrite = once('ENOSPC', (m, seen) => m.op === 'writeFile' && m.path.includes('.reset-spec.json.') && seen.some((s) => s.path.includes('.reset-spec.json.')));
    const { problems, faulted } = await withKit(kit, { scenario: CLAUDE_CODEX_UNRECORDED }, () => faultCase(kit, recordWrite, 'recordId spec write'));
    expect(problems).toEqual([]);
    expect(rowState(faulted, 'reviewer-codex-01')).toBe('failed at stop');
    expect(faulted.trace.some((l) => l.includes('captured its live conversation id onto the row'))).toBe(true);
  }, 90_000);

  it('the loop guard marker cannot be removed: exit 1 naming it; the rerun in this process is not refused', async () => {
    const { problems, faulted } = await faultCase(kit, once('EIO', (m) => m.op === 'unlink' && m.path.endsWith('/.mam/loop-guard-active')), 'guard release');
    expect(problems).toEqual([]);
    expect(faulted.out?.exitCode, said(faulted)).toBe(1);
    expect(faulted.out?.message).toContain('loop-guard-active');
  }, 60_000);
});
