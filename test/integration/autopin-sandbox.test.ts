// AutoPin and reconcile end to end: real fake agents (agy, codex, hermes, opencode) live in the fake herdr executable,
// their ids taken off their rows, then `mam reconcile` (a real process) and AutoPin raced by real processes.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownKey } from '../../src/ids/agent-names.js';
import { JobEngine } from '../../src/jobs/index.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import { raceChildren } from '../helpers/autopin-spawn.js';
import { MAM_BIN } from '../helpers/mam-bin.js';

const HERMES = 'creator-hermes-01';
const OFFLINE = new Set(['agy', 'codex']);
const rowName = (s: { name: string; agent: string }): string => (OFFLINE.has(s.agent) ? `${s.name}-renamed` : s.name);
const source = (s: { agent: string }): string => (OFFLINE.has(s.agent) ? 'disk' : 'herdr');

let dir: string;
let sb: Sandbox;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mam-autopin-sb-'));
  sb = await buildSandbox(join(dir, 'sb'), {
    sessions: [
      { name: 'planner-agy-01', agent: 'agy', role: 'planner' },
      { name: 'coder-codex-01', agent: 'codex', role: 'coder' },
      { name: HERMES, agent: 'hermes', role: 'creator' },
      { name: 'Coder OpenCode #1', agent: 'opencode', role: 'coder' },
    ],
  });
  // Drift C: running post-discovered rows whose ids were never pinned. The agy and codex rows are renamed, so herdr knows
  // no agent by their names and their capture must come from disk (agy: its pane process holds the conversation open).
  await sb.registry.update((d) => {
    for (const r of d.herdr_sessions) {
      if (r.agent !== undefined) r[ownKey(r.agent)] = null;
      r.session_id_source = 'pending-discovery';
      r.session_id_verified = false;
      if (OFFLINE.has(r.agent ?? '')) r.name = `${r.name}-renamed`;
    }
  });
}, 60_000);
afterAll(async () => {
  await sb?.stopAll();
  await rm(dir, { recursive: true, force: true });
});

function mam(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [MAM_BIN, ...args, '--workspace', sb.workspace], { encoding: 'utf8', env: sb.env });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe('reconcile and AutoPin on live fake agents', () => {
  it('`mam reconcile` is a dry run: each drifted row would get its live id, the registry is left byte-identical', () => {
    const yaml = join(sb.workspace, '.mam', 'agent-sessions.yaml');
    const before = readFileSync(yaml, 'utf8');
    const res = mam('reconcile', '--home', sb.home);
    expect(res.code, res.stderr).toBe(0);
    for (const s of sb.sessions) expect(res.stdout).toContain(`would pin ${rowName(s)} (${s.agent}): ${s.id} [from ${source(s)}]`);
    expect(res.stdout).toContain('dry run: nothing was pinned');
    expect(readFileSync(yaml, 'utf8')).toBe(before);
  });

  it('AutoPin raced by four processes pins the completed job\'s row once; the job record is never written', async () => {
    const hermes = sb.sessions.find((s) => s.name === HERMES)!;
    const jobs = new JobEngine(join(sb.workspace, '.mam', 'jobs'), { ports: sb.ports() });
    const job = await jobs.registerJob('summarise', { agentSession: `herdr:${HERMES}` });
    await jobs.transition(job.job_id, 'claim', { expectedStatus: 'pending' });
    await jobs.transition(job.job_id, 'completed', { expectedStatus: 'running' });
    const record = join(sb.workspace, '.mam', 'jobs', `${job.job_id}.json`);
    const before = readFileSync(record, 'utf8');
    const argv = ['pin', sb.workspace, sb.home, job.job_id, 'token-1', '1'];
    const answers = await raceChildren([argv, argv, argv, argv], join(dir, 'go-pin'), sb.env);
    for (const a of answers) expect(a.code, a.stderr).toBe(0);
    const results = answers.map((a) => a.answer);
    const handled = results.filter((r) => r?.['reason'] !== 'already handled');
    expect(handled).toEqual([{ kind: 'pinned', jobId: job.job_id, name: HERMES, agent: 'hermes', id: hermes.id, source: 'herdr' }]);
    expect(results.filter((r) => r?.['reason'] === 'already handled')).toHaveLength(3);
    const row = (await sb.registry.snapshot()).herdr_sessions.find((r) => r.name === HERMES);
    expect(row).toMatchObject({ hermes_conversation_id_own: hermes.id, session_id_source: 'discovered', session_id_verified: true });
    expect(readFileSync(record, 'utf8')).toBe(before);
    expect(readdirSync(join(sb.workspace, '.mam', 'jobs', job.job_id)).filter((f) => f.startsWith('autopin-a1-'))).toHaveLength(1);
  });

  it('`mam reconcile --apply` pins the rest, each with the id its live session uses', async () => {
    const res = mam('reconcile', '--home', sb.home, '--apply', '--json');
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as { apply: boolean; entries: Array<{ name: string; outcome: string; id?: string }> };
    expect(report.apply).toBe(true);
    const others = sb.sessions.filter((s) => s.name !== HERMES);
    expect(report.entries).toEqual(others.map((s) => ({ name: rowName(s), agent: s.agent, outcome: 'pinned', id: s.id, source: source(s) })));
    const rows = (await sb.registry.snapshot()).herdr_sessions;
    for (const s of sb.sessions) expect(rows.find((r) => r.name === rowName(s)), s.name).toMatchObject({ [ownKey(s.agent)]: s.id, session_id_source: 'discovered', session_id_verified: true });
    expect(mam('reconcile', '--home', sb.home).stdout).toBe(`no drifted rows in ${sb.workspace}\n`);
  });
});
