import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { policyCommand } from '../../src/cli/commands/policy.js';
import { SCENARIO_DIR, loadManifest, loadScenarios } from '../helpers/jobs-scenarios.js';
import { makeJobsWorkspace } from '../helpers/jobs-workspace.js';

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await policyCommand(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) });
  return { code, stdout, stderr };
}

describe('mam policy FILE.json… [--json]', () => {
  const files = loadManifest().scenarios.map((id) => join(SCENARIO_DIR, `${id}.json`));
  const vectors = loadScenarios();
  let dir: string;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ workspace: dir, dispose } = await makeJobsWorkspace('cli-policy'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('--json prints one {kind: decisions} with a {file, scenarioId, decision, reason} per file, in order, and exits 0', async () => {
    const { code, stdout, stderr } = await run([...files, '--json']);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const doc = JSON.parse(stdout) as { kind: string; decisions: Array<Record<string, string>>; failures: unknown[] };
    expect([doc.kind, doc.failures]).toEqual(['decisions', []]);
    const lines = doc.decisions;
    expect(lines.map((l) => Object.keys(l).sort())).toEqual(files.map(() => ['decision', 'file', 'reason', 'scenarioId']));
    expect(lines.map((l) => [l['scenarioId'], l['decision']])).toEqual(loadManifest().scenarios.map((id) => [id, vectors.get(id)?.expected_policy.decision]));
  });

  it('without --json prints `id: decision — reason` lines', async () => {
    const { code, stdout } = await run([join(SCENARIO_DIR, 'blocked_permission.json')]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^blocked_permission: blocked — .*human.*\n$/);
  });

  it('a file without scenario_id is named after the file', async () => {
    const f = join(dir, 'bare.json');
    await writeFile(f, '{}');
    const { stdout } = await run([f, '--json']);
    expect(JSON.parse(stdout)).toMatchObject({ kind: 'decisions', decisions: [{ file: f, scenarioId: 'bare', decision: 'reobserve' }] });
  });

  it('an unreadable or non-JSON file is reported (on stderr, or in the JSON\'s failures), the others still decided, exit 1', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{not json');
    const text = await run([join(dir, 'missing.json'), bad, files[0] as string]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('missing.json: NotFound');
    expect(text.stderr).toContain('bad.json: not JSON');
    expect(text.stdout.trimEnd().split('\n')).toHaveLength(1);
    const { code, stdout, stderr } = await run([join(dir, 'missing.json'), bad, files[0] as string, '--json']);
    expect([code, stderr]).toEqual([1, '']);
    const doc = JSON.parse(stdout) as { decisions: unknown[]; failures: Array<{ file: string; message: string }> };
    expect(doc.decisions).toHaveLength(1);
    expect(doc.failures.map((f) => [f.file, f.message.split(':')[0]])).toEqual([[join(dir, 'missing.json'), 'NotFound'], [bad, 'not JSON']]);
  });

  it('no file or an unknown option is a usage error, exit 2', async () => {
    expect(await run([])).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: mam policy') });
    expect(await run(['--yaml', files[0] as string])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option: --yaml') });
  });
});
