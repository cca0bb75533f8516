import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { resolvePorts } from '../../../src/node/node-ports.js';
import { readResetSpec, ResetPlanner, ResetSpecError, resetSpecPath, writeResetSpec } from '../../../src/reset/index.js';
import { makeRow, resetWorkspace, specEntry, target, UA, UB, UC, UD, writeRows } from '../../helpers/reset-kit.js';

let w: Awaited<ReturnType<typeof resetWorkspace>>;
const ports = resolvePorts();
beforeEach(async () => {
  w = await resetWorkspace();
});
afterEach(async () => {
  await w.dispose();
});

async function expectRejectedUntouched(text: string, match: RegExp): Promise<void> {
  const path = resetSpecPath(w.ws);
  await writeFile(path, text);
  const before = await stat(path);
  const err = await readResetSpec(ports.fs, w.ws).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ResetSpecError);
  expect((err as Error).message).toMatch(match);
  expect((err as Error).message).toContain('check it, then remove it by hand');
  expect(await readFile(path, 'utf8')).toBe(text);
  expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
}

describe('reset spec file (D5)', () => {
  it('round-trips version 1 with the realpath of the workspace, and rejects bad files leaving them exactly as they were', async () => {
    const targets = [target('reviewer-claude-01', 'claude', UA)];
    await writeResetSpec(ports.fs, ports.clock, w.sym, targets);
    const doc = await readResetSpec(ports.fs, w.ws);
    expect(doc?.version).toBe(1);
    expect(doc?.workspace).toBe(realpathSync(w.ws));
    expect(doc?.agents).toEqual(targets);
    expect(typeof JSON.parse(await readFile(resetSpecPath(w.ws), 'utf8')).written_at).toBe('string');
    const other = join(w.ws, '..', 'other');
    await mkdir(join(other, '.mam'), { recursive: true });
    await writeFile(resetSpecPath(other), await readFile(resetSpecPath(w.ws)));
    await expect(readResetSpec(ports.fs, other)).rejects.toThrow(/another workspace.*check it, then remove it by hand/);
    await expectRejectedUntouched(JSON.stringify({ version: 99, workspace: w.ws, agents: [] }), /version/);
    for (const bad of ['not-an-agent', 'CLAUDE']) {
      await expectRejectedUntouched(JSON.stringify({ version: 1, workspace: w.ws, agents: [specEntry('reviewer-bad-01', bad, UA)] }), /unknown agent/);
    }
    await expectRejectedUntouched('{corrupt', /corrupt/);
    await expectRejectedUntouched(JSON.stringify({ version: 1, workspace: w.ws, agents: [specEntry('a', 'claude', UA), specEntry('a', 'claude', UB)] }), /twice/);
    await expect(new ResetPlanner(w.ws).entries()).rejects.toThrow(/check it, then remove it by hand/);
  });

  it('returns null when there is no spec', async () => {
    expect(await readResetSpec(ports.fs, w.ws)).toBeNull();
    expect(await new ResetPlanner(w.ws).entries()).toEqual([]);
  });
});

describe('entries (D6 #1-#5, §5.2-9b), the table and recordId (review F1)', () => {
  it('classifies the five states, renders the table, and keeps a resumed conversation pending once its id is recorded', async () => {
    await writeResetSpec(ports.fs, ports.clock, w.ws, [
      target('s1-purged', 'claude', UA),
      target('s2-same-inst-newly-recorded', 'agy', null),
      target('s3-resumed-same-id', 'claude', UB),
      target('s4-created-no-id', 'hermes', UC),
      target('s5-done', 'codex', null),
    ]);
    const rows = [
      makeRow('s2-same-inst-newly-recorded', 'agy', w.ws, { status: 'stopped', ownId: UA }),
      makeRow('s3-resumed-same-id', 'claude', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UB }),
      makeRow('s4-created-no-id', 'hermes', w.ws, { createdAt: '2026-10-02T00:00:00Z' }),
      makeRow('s5-done', 'codex', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UD }),
    ];
    await writeRows(w.ws, rows);
    const planner = new ResetPlanner(w.ws);
    const states = Object.fromEntries((await planner.entries()).map((e) => [e.target.name, e]));
    expect(states['s1-purged']?.state).toBe('purged');
    expect(states['s2-same-inst-newly-recorded']?.state).toBe('pending');
    expect(states['s2-same-inst-newly-recorded']?.rowId).toBe(UA);
    expect(states['s3-resumed-same-id']?.state).toBe('pending');
    expect(states['s4-created-no-id']?.state).toBe('created');
    expect(states['s5-done']?.state).toBe('done');

    const tbl = await planner.table(new Map([['s2-same-inst-newly-recorded', 'skipped: purge refused']]));
    expect(tbl.exitCode).toBe(4);
    const lines = tbl.text.split('\n');
    expect(lines[0]?.split(/\s+/)).toEqual(['NAME', 'AGENT', 'OLD_ID', 'NEW_ID', 'RECORDED', 'NEW!=OLD', 'STATE']);
    const cols = Object.fromEntries(lines.slice(1).map((l) => [l.split(/\s+/)[0], l.split(/\s+/)]));
    expect(cols['s2-same-inst-newly-recorded']?.slice(1)).toEqual(['agy', '-', '-', 'no', '-', 'skipped:', 'purge', 'refused']);
    expect(cols['s3-resumed-same-id']?.slice(1)).toEqual(['claude', UB, UB, 'yes', 'no', 'pending']);
    expect(cols['s4-created-no-id']?.slice(1)).toEqual(['hermes', UC, '-', 'no', '-', 'created;', 'id', 'not', 'recorded', 'yet']);
    expect(cols['s5-done']?.slice(1)).toEqual(['codex', '-', UD, 'yes', 'yes', 'done']);

    expect(await planner.recordId('s2-same-inst-newly-recorded')).toBe(true);
    expect((await readResetSpec(ports.fs, w.ws))?.agents[1]?.oldId).toBe(UA);
    expect(await planner.recordId('s2-same-inst-newly-recorded')).toBe(false);
    // The skipped row resumed: a new instance still on UA is pending, never a false done.
    rows[0] = makeRow('s2-same-inst-newly-recorded', 'agy', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UA });
    await writeRows(w.ws, rows);
    const e2 = (await planner.entries()).find((e) => e.target.name === 's2-same-inst-newly-recorded');
    expect(e2?.state).toBe('pending');
    const t2 = await planner.table();
    expect(t2.exitCode).toBe(4);
    expect(t2.rows.find((r) => r.name === 's2-same-inst-newly-recorded')).toMatchObject({ oldId: UA, newId: UA, recorded: true, differs: false, state: 'pending' });
  });

  it('does not record an id from another instance', async () => {
    await writeResetSpec(ports.fs, ports.clock, w.ws, [target('a-agy', 'agy', null)]);
    await writeRows(w.ws, [makeRow('a-agy', 'agy', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UA })]);
    expect(await new ResetPlanner(w.ws).recordId('a-agy')).toBe(false);
    expect((await readResetSpec(ports.fs, w.ws))?.agents[0]?.oldId).toBeNull();
  });

  it('exit precedence of the table is 1 > 4 > 5 > 0', async () => {
    await writeResetSpec(ports.fs, ports.clock, w.ws, [target('a', 'claude', UA), target('b', 'hermes', UC)]);
    await writeRows(w.ws, [makeRow('a', 'claude', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UB }), makeRow('b', 'hermes', w.ws, { createdAt: '2026-10-02T00:00:00Z' })]);
    const p = new ResetPlanner(w.ws);
    expect((await p.table()).exitCode).toBe(5);
    expect((await p.table(new Map([['a', 'skipped: purge refused']]))).exitCode).toBe(4);
    expect((await p.table(new Map([['a', 'skipped: purge refused'], ['b', 'failed at create (rc 2)']]))).exitCode).toBe(1);
    await writeRows(w.ws, [makeRow('a', 'claude', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UB }), makeRow('b', 'hermes', w.ws, { createdAt: '2026-10-02T00:00:00Z', ownId: UD })]);
    expect((await p.table()).exitCode).toBe(0);
  });
});

describe('the table under hostile values', () => {
  it('quotes a name or id with spaces or control characters so a row stays one line of seven columns', async () => {
    const { renderResetTable } = await import('../../../src/reset/index.js');
    const text = renderResetTable([{ name: 'evil\nname x', agent: 'claude', oldId: 'a b\u001b[2J', newId: null, recorded: false, differs: null, state: 'pending' }]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).not.toContain('\u001b');
    expect(lines[1]).toContain('"evil\\nname x"');
  });
});
