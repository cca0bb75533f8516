import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DispatchStore, ShadowPolicy, ShadowRunner, type PolicyDecision, type PolicyScenario } from '../../../src/loop/index.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { FakeClock } from '../../../src/testing/fs/index.js';
import { cloneScenario, loadScenarios } from '../../helpers/jobs-scenarios.js';
import { fingerprintDir, makeJobsWorkspace } from '../../helpers/jobs-workspace.js';

const scenarios = loadScenarios();

describe('ShadowRunner', () => {
  let workspace: string;
  let dispose: () => Promise<void>;
  const ports = { fs: new NodeFileSystem(), clock: new FakeClock({ now: Date.UTC(2026, 8, 6) }) };

  beforeEach(async () => {
    ({ workspace, dispose } = await makeJobsWorkspace('shadow'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('records its would-complete decision in the dispatch store', async () => {
    const runner = new ShadowRunner({ workspace, ports });
    const entry = await runner.evaluate(scenarios.get('finalized_candidate') as PolicyScenario);
    expect(entry).toEqual({
      job_id: 'job-finalized_candidate', scenario_id: 'finalized_candidate', decision: 'candidate_approved',
      reason: expect.any(String), would_complete: true, shadow: true,
    });
    const logged = await new DispatchStore(workspace, { ports }).readDecisions('job-finalized_candidate');
    expect(logged.at(-1)).toMatchObject({ decision: 'candidate_approved', would_complete: true, shadow: true, at: '2026-09-06T00:00:00.000Z' });
  });

  it('evaluateAll keeps order; only candidate_approved would complete; every entry is shadow', async () => {
    const all = [...scenarios.values()];
    const entries = await new ShadowRunner({ workspace, ports }).evaluateAll(all);
    expect(entries.map((e) => e.scenario_id)).toEqual(all.map((s) => s.scenario_id));
    expect(entries.map((e) => e.decision)).toEqual(all.map((s) => s.expected_policy.decision));
    expect(entries.filter((e) => e.would_complete).map((e) => e.scenario_id)).toEqual(['finalized_candidate']);
    expect(entries.every((e) => e.shadow)).toBe(true);
  });

  it('uses the policy it is given', async () => {
    class AlwaysHold extends ShadowPolicy {
      override decide(): PolicyDecision {
        return { decision: 'hold', reason: 'test' };
      }
    }
    const entry = await new ShadowRunner({ workspace, policy: new AlwaysHold(), ports }).evaluate(scenarios.get('finalized_candidate') as PolicyScenario);
    expect(entry).toMatchObject({ decision: 'hold', would_complete: false });
  });

  it('a scenario naming no usable job id is decided but logs nothing', async () => {
    const s = cloneScenario(scenarios.get('tool_running') as PolicyScenario);
    delete s.job;
    s.dispatch_context = { ...s.dispatch_context, job_id: '../outside' };
    const entry = await new ShadowRunner({ workspace, ports }).evaluate(s);
    expect(entry).toMatchObject({ job_id: '../outside', decision: 'reject', shadow: true });
    const noId = cloneScenario(s);
    delete noId.dispatch_context;
    expect((await new ShadowRunner({ workspace, ports }).evaluate(noId)).job_id).toBeNull();
    expect(await fingerprintDir(workspace)).toEqual({});
  });
});
