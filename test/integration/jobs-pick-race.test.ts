import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobEngine } from '../../src/jobs/index.js';
import { spawnHelper, type Child } from '../helpers/fs-child.js';
import { makeJobsWorkspace } from '../helpers/jobs-workspace.js';

describe('pickPending across real processes', () => {
  let workspace: string;
  let registryDir: string;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ workspace, registryDir, dispose } = await makeJobsWorkspace('race'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('8 processes racing pickPending on one job: exactly one wins, one commit, one audited change', async () => {
    const engine = new JobEngine(registryDir);
    const job = await engine.registerJob('race me', { agentSession: 'herdr:s1' });
    await engine.registerJob('not yours', { agentSession: 'herdr:s2' });
    const go = join(workspace, 'go');
    const racers: Child[] = Array.from({ length: 8 }, () => spawnHelper('jobs-pick-child.ts', [registryDir, 'herdr:s1', go]));
    await Promise.all(racers.map((r) => r.line('ready')));
    await writeFile(go, '');
    const exits = await Promise.all(racers.map((r) => r.exit));
    expect(exits.map((e) => e.code), racers.map((r) => r.stderr()).join('\n')).toEqual(Array(8).fill(0));
    const picks = racers.map((r) => (r.printed(`picked ${job.job_id}`) ? job.job_id : r.printed('picked null') ? null : 'missing'));
    expect(picks.filter((p) => p === job.job_id)).toHaveLength(1);
    expect(picks.filter((p) => p === null)).toHaveLength(7);
    const record = await engine.load(job.job_id);
    expect(record).toMatchObject({ status: 'running', transition_seq: 1 });
    const changes = (await engine.audit.read(job.job_id)).filter((e) => e.event === 'status_changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ from: 'pending', to: 'running' });
    expect((await engine.list()).find((r) => r.agent_session === 'herdr:s2')?.status).toBe('pending');
  }, 60_000);
});
