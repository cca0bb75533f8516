// A reset spec written by the previous version (snake_case keys, its exact text) is resumed by a rerun end to end: the
// run takes its targets from that file (the label it names, not the row's, is what the new session gets), finishes,
// and removes it.
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import { resetSandbox } from '../helpers/reset-sandbox.js';

describe('a previous-version reset spec still reruns', () => {
  let k: Awaited<ReturnType<typeof resetSandbox>>;
  beforeAll(async () => {
    k = await resetSandbox([{ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrWorkspace: 'lbl-row' }]);
  }, 60_000);
  afterAll(async () => {
    await k?.dispose();
  });

  it('resumes from the snake_case file and finishes (exit 0, spec removed)', async () => {
    const row = (await k.sb.registry.snapshot()).herdr_sessions[0];
    const oldId = row === undefined ? null : recordedId(row);
    expect(oldId).not.toBeNull();
    const text = `${JSON.stringify(
      {
        version: 1,
        workspace: k.sb.workspace,
        written_at: '2026-10-29T00:00:00.000Z',
        agents: [{ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdr_server: 'default', herdr_workspace: 'lbl-from-spec', old_id: oldId, old_created_at: row?.herdr_session_created_at ?? null }],
      },
      null,
      2,
    )}\n`;
    writeFileSync(resetSpecPath(k.sb.workspace), text);
    const trace: string[] = [];
    const out = await k.planner().run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
    expect(out.kind, `${out.table}\n${trace.join('\n')}`).toBe('done');
    expect(out.exitCode).toBe(0);
    expect(out.rows).toMatchObject([{ name: 'reviewer-claude-01', agent: 'claude', oldId, recorded: true, differs: true, state: 'done' }]);
    const after = (await k.sb.registry.snapshot()).herdr_sessions;
    expect(after.map((r) => [r.name, r.herdr_workspace])).toEqual([['reviewer-claude-01', 'lbl-from-spec']]);
    expect(existsSync(resetSpecPath(k.sb.workspace))).toBe(false);
  }, 90_000);
});
