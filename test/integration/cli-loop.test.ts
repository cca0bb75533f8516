// `mam loop` end to end: a real process over the fake herdr executable and a live fake agent (hermes, its id not pinned).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopCommand } from '../../src/cli/commands/loop.js';
import { JobEngine } from '../../src/jobs/index.js';
import { DispatchStore, LoopGuard } from '../../src/loop/index.js';
import { readFakeHerdrSpyLog } from '../../src/testing/herdr/index.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import { MAM_BIN } from '../helpers/mam-bin.js';

const CREATOR = 'creator-hermes-01';

let dir: string;
let sb: Sandbox;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mam-cli-loop-'));
  sb = await buildSandbox(join(dir, 'sb'), { sessions: [{ name: CREATOR, agent: 'hermes', role: 'creator' }] });
  await sb.registry.update((d) => {
    const row = d.herdr_sessions[0]!;
    row.hermes_conversation_id_own = null;
    row.session_id_source = 'pending-discovery';
    row.session_id_verified = false;
  });
}, 60_000);
afterAll(async () => {
  await sb?.stopAll();
  await rm(dir, { recursive: true, force: true });
});

function mam(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [MAM_BIN, 'loop', ...args, '--workspace', sb.workspace, '--home', sb.home], { encoding: 'utf8', env: sb.env, timeout: 60_000 });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

const jobsDir = (): string => join(sb.workspace, '.mam', 'jobs');
const jobCount = (): number => (existsSync(jobsDir()) ? readdirSync(jobsDir()).filter((f) => f.endsWith('.json')).length : 0);

describe('mam loop', () => {
  it('prompts the creator, watches it finish, completes the job and pins its conversation id', async () => {
    const res = mam('--creator', CREATOR, '--task', 'write the report', '--wait-ms', '3000', '--quiescence-ms', '300', '--timeout-s', '60', '--json');
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { kind: string; jobId: string; autopin: { kind: string; id?: string }; shadow: { decisions: number } };
    expect(out).toMatchObject({ kind: 'completed', attempt: 1, autopin: { kind: 'pinned', name: CREATOR, id: sb.sessions[0]!.id, source: 'herdr' } });
    expect(out.shadow.decisions).toBeGreaterThanOrEqual(2);
    for (const step of ['registered and claimed', 'dispatch recorded', 'execution anchor observed', 'shadow: ', `job ${out.jobId} completed`, 'autopin: pinned']) {
      expect(res.stderr).toContain(`loop [${CREATOR}]: `);
      expect(res.stderr, step).toContain(step);
    }
    expect(res.stderr).not.toContain(sb.sessions[0]!.id);
    const jobs = new JobEngine(jobsDir(), { ports: sb.ports() });
    expect(await jobs.load(out.jobId)).toMatchObject({ status: 'completed', agent_session: `herdr:${CREATOR}`, prompt: 'write the report' });
    expect(await new DispatchStore(sb.workspace, { ports: sb.ports() }).loadDispatch(out.jobId)).toMatchObject({ execution_anchor_observed: true, agent_session_uuid: sb.sessions[0]!.id });
    expect((await sb.registry.snapshot()).herdr_sessions[0]).toMatchObject({ hermes_conversation_id_own: sb.sessions[0]!.id, session_id_source: 'discovered', session_id_verified: true });
    const prompts = (await readFakeHerdrSpyLog(sb.spyLogPath)).filter((c) => c.argv.includes('prompt'));
    expect(prompts.map((c) => c.argv.slice(-2))).toEqual([[CREATOR, 'write the report']]);
    expect(existsSync(join(sb.workspace, '.mam', 'loop-guard-active'))).toBe(false);
  });

  it('refuses while another loop (or a reset) holds the guard, then refuses an unregistered creator', async () => {
    const before = jobCount();
    const held = await new LoopGuard(sb.workspace, { ports: sb.ports() }).acquire({ holder: 'reset' });
    expect(held.kind).toBe('acquired');
    try {
      const res = mam('--creator', 'x', '--task', 't');
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`Another multi-agent-mux-loop is already running (pid ${process.pid}`);
    } finally {
      if (held.kind === 'acquired') await held.guard.release();
    }
    const res = mam('--creator', 'x', '--task', 't');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('creator "x" is not registered');
    expect(jobCount()).toBe(before);
  });

  it('a usage error exits 2 and touches nothing', async () => {
    const before = jobCount();
    const io = { stdout: () => undefined, stderr: () => undefined };
    for (const argv of [['--creator', CREATOR], ['--task', 't'], ['--creator', CREATOR, '--task', 't', '--wait-ms', 'soon'], ['--bogus']]) {
      expect(await loopCommand([...argv, '--workspace', sb.workspace], io), argv.join(' ')).toBe(2);
    }
    expect(jobCount()).toBe(before);
  });
});
