// The TypeScript API is camelCase (ResetTarget.oldId, herdrServer …) but `.mam/reset-spec.json` keeps the reference
// tool's snake_case keys: a spec written by the previous version (or the reference system) still reads and resumes, and
// the file written now has the same keys, in the same order, byte for byte.
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolvePorts } from '../../../src/node/node-ports.js';
import { readResetSpec, ResetPlanner, resetSpecPath, resetSpecText, writeResetSpec } from '../../../src/reset/index.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { makeRow, resetWorkspace, UA, UB, writeRows } from '../../helpers/reset-kit.js';

let w: Awaited<ReturnType<typeof resetWorkspace>>;
const ports = resolvePorts();
beforeEach(async () => {
  w = await resetWorkspace();
});
afterEach(async () => {
  await w.dispose();
});

// Exactly what the previous version wrote (`JSON.stringify(spec, null, 2)` of its snake_case ResetSpec, plus a newline).
function previousVersionText(ws: string, agyOldId: string | null): string {
  const lines = [
    '{',
    '  "version": 1,',
    `  "workspace": ${JSON.stringify(ws)},`,
    '  "written_at": "2026-10-29T00:00:00.000Z",',
    '  "agents": [',
    '    {',
    '      "name": "reviewer-claude-01",',
    '      "agent": "claude",',
    '      "role": "reviewer",',
    '      "herdr_server": "srv-1",',
    '      "herdr_workspace": "lbl-1",',
    `      "old_id": "${UA}",`,
    '      "old_created_at": null',
    '    },',
    '    {',
    '      "name": "reviewer-agy-01",',
    '      "agent": "agy",',
    '      "role": "reviewer",',
    '      "herdr_server": "default",',
    '      "herdr_workspace": "ws",',
    `      "old_id": ${JSON.stringify(agyOldId)},`,
    '      "old_created_at": "2026-10-01T00:00:00Z"',
    '    }',
    '  ]',
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

describe('reset spec file: snake_case on disk, camelCase in TypeScript', () => {
  it('reads a spec the previous version wrote into camelCase targets', async () => {
    await writeFile(resetSpecPath(w.ws), previousVersionText(w.ws, null));
    const spec = await readResetSpec(ports.fs, w.ws);
    expect(spec).toEqual({
      version: 1,
      workspace: w.ws,
      writtenAt: '2026-10-29T00:00:00.000Z',
      agents: [
        { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrServer: 'srv-1', herdrWorkspace: 'lbl-1', oldId: UA, oldCreatedAt: null },
        { name: 'reviewer-agy-01', agent: 'agy', role: 'reviewer', herdrServer: 'default', herdrWorkspace: 'ws', oldId: null, oldCreatedAt: '2026-10-01T00:00:00Z' },
      ],
    });
    // No camelCase key leaks into what is read, and none into what is written back.
    expect(resetSpecText(spec ?? (null as never))).toBe(previousVersionText(w.ws, null));
  });

  it('the file written now is the previous version\'s bytes (same keys, same order)', async () => {
    const clock = new FakeClock({ now: Date.parse('2026-10-29T00:00:00.000Z') });
    const spec = await readResetSpecFrom(previousVersionText(w.ws, null));
    await writeResetSpec(ports.fs, clock, w.ws, spec.agents);
    expect(await readFile(resetSpecPath(w.ws), 'utf8')).toBe(previousVersionText(w.ws, null));
  });

  it('a rerun over a previous-version spec resumes from it: entries, and recordId writes old_id back in the old format', async () => {
    await writeFile(resetSpecPath(w.ws), previousVersionText(w.ws, null));
    // The agy row is the same instance (the spec's created-at) and now records an id; claude's row is gone (purged).
    await writeRows(w.ws, [makeRow('reviewer-agy-01', 'agy', w.ws, { status: 'stopped', ownId: UB })]);
    const planner = new ResetPlanner(w.ws);
    const states = (await planner.entries()).map((e) => [e.target.name, e.state]);
    expect(states).toEqual([['reviewer-claude-01', 'purged'], ['reviewer-agy-01', 'pending']]);
    expect(await planner.recordId('reviewer-agy-01')).toBe(true);
    expect(await readFile(resetSpecPath(w.ws), 'utf8')).toBe(previousVersionText(w.ws, UB));
    const pre = await planner.precheck({ callerEnv: {} });
    expect(pre.kind === 'ok' && pre.targets.map((t) => [t.name, t.oldId])).toEqual([['reviewer-claude-01', UA], ['reviewer-agy-01', UB]]);
  });
});

async function readResetSpecFrom(text: string): Promise<NonNullable<Awaited<ReturnType<typeof readResetSpec>>>> {
  await writeFile(resetSpecPath(w.ws), text);
  const spec = await readResetSpec(ports.fs, w.ws);
  if (spec === null) throw new Error('no spec');
  return spec;
}
