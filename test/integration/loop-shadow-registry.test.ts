// G4: a shadow run over every scenario leaves every byte under the job registry as it was.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobEngine } from '../../src/jobs/index.js';
import { DispatchStore, ShadowRunner } from '../../src/loop/index.js';
import { cloneScenario, loadScenarios } from '../helpers/jobs-scenarios.js';
import { fingerprintDir, makeJobsWorkspace } from '../helpers/jobs-workspace.js';

describe('G4: the shadow runner cannot write the job registry', () => {
  let workspace: string;
  let registryDir: string;
  let logsDir: string;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ workspace, registryDir, logsDir, dispose } = await makeJobsWorkspace('g4'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('a run over all scenarios, about jobs that really exist, leaves the registry and the audit logs byte-identical', async () => {
    const engine = new JobEngine(registryDir);
    const scenarios = [...loadScenarios().values()].map(cloneScenario);
    for (const s of scenarios) {
      const job = await engine.registerJob(`prompt of ${s.scenario_id}`, { jobId: s.job?.job_id as string, agentSession: 'herdr:s1' });
      await engine.transition(job.job_id, 'claim');
    }
    await engine.updateJobStatus(scenarios[0]?.job?.job_id as string, { status: 'completed' });
    const before = await fingerprintDir(registryDir);
    const auditBefore = await fingerprintDir(logsDir);
    expect(Object.keys(before).length).toBeGreaterThan(scenarios.length);

    const results = await new ShadowRunner({ workspace }).evaluateAll(scenarios);

    expect(await fingerprintDir(registryDir)).toEqual(before);
    expect(await fingerprintDir(logsDir)).toEqual(auditBefore);
    expect(results.some((r) => r.would_complete)).toBe(true);
    expect(results.every((r) => r.shadow)).toBe(true);
    const approved = results.find((r) => r.would_complete);
    expect((await engine.load(approved?.job_id as string)).status).toBe('running');
    const logged = await new DispatchStore(workspace).readDecisions(approved?.job_id as string);
    expect(logged.map((d) => d.decision)).toEqual(['candidate_approved']);
  });

  it('the fingerprint sees a change (so the equality above is not vacuous)', async () => {
    const engine = new JobEngine(registryDir);
    const job = await engine.registerJob('p');
    const before = await fingerprintDir(registryDir);
    await engine.nextSeq(job.job_id);
    expect(await fingerprintDir(registryDir)).not.toEqual(before);
  });
});
