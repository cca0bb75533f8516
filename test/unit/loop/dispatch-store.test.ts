import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobEngine } from '../../../src/jobs/index.js';
import { DispatchNotFoundError, DispatchStore, DispatchStoreError } from '../../../src/loop/index.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { FakeClock } from '../../../src/testing/fs/index.js';
import { fingerprintDir, makeJobsWorkspace } from '../../helpers/jobs-workspace.js';

describe('DispatchStore', () => {
  let workspace: string;
  let registryDir: string;
  let dispose: () => Promise<void>;
  let store: DispatchStore;
  let jobId: string;
  const GEN = 'w2X:p1:1234:2026-09-06T00:00:00Z';

  beforeEach(async () => {
    ({ workspace, registryDir, dispose } = await makeJobsWorkspace('store'));
    const ports = { fs: new NodeFileSystem(), clock: new FakeClock({ now: Date.UTC(2026, 8, 6) }) };
    store = new DispatchStore(workspace, { ports });
    jobId = (await new JobEngine(registryDir, { ports }).registerJob('p')).job_id;
  });
  afterEach(async () => {
    await dispose();
  });

  it('recordDispatch keeps attribution out of the job registry, byte for byte', async () => {
    const before = await fingerprintDir(registryDir);
    const ctx = await store.recordDispatch(jobId, 1, 'uuid-1', GEN);
    expect(ctx).toMatchObject({ job_id: jobId, attempt_id: 1, agent_session_uuid: 'uuid-1', pane_process_generation: GEN, dispatch_ack: true, execution_anchor_observed: false });
    expect(await store.loadDispatch(jobId)).toEqual(ctx);
    expect(await fingerprintDir(registryDir)).toEqual(before);
    expect(JSON.parse(await readFile(join(workspace, '.mam', 'loop', 'dispatch', `${jobId}.json`), 'utf8'))).toEqual(ctx);
  });

  it('a dispatch ack is not execution: the anchor is marked separately', async () => {
    await store.recordDispatch(jobId, 1, 'u', 'w2X:p1:1:t');
    const ctx = await store.markExecutionAnchor(jobId);
    expect(ctx.execution_anchor_observed).toBe(true);
    expect((await store.loadDispatch(jobId))?.execution_anchor_observed).toBe(true);
  });

  it('a new dispatch (next attempt) resets the anchor', async () => {
    await store.recordDispatch(jobId, 1, 'u', 'w2X:p1:1:t');
    await store.markExecutionAnchor(jobId);
    expect((await store.recordDispatch(jobId, 2, 'u', 'w2X:p1:1:t')).execution_anchor_observed).toBe(false);
  });

  it('marking an anchor without a dispatch is DISPATCH_NOT_FOUND; a missing context loads as null', async () => {
    expect(await store.loadDispatch(jobId)).toBeNull();
    await expect(store.markExecutionAnchor(jobId)).rejects.toBeInstanceOf(DispatchNotFoundError);
  });

  it('bad input and a corrupt context are DISPATCH_INVALID; a bad job id never builds a path', async () => {
    await expect(store.recordDispatch(jobId, 1.5, 'u', 'g:1')).rejects.toBeInstanceOf(DispatchStoreError);
    await expect(store.recordDispatch(jobId, 1, '', 'g:1')).rejects.toBeInstanceOf(DispatchStoreError);
    await expect(store.recordDispatch('../escape', 1, 'u', 'g:1')).rejects.toMatchObject({ code: 'JOB_INVALID_ARGUMENT' });
    await store.recordDispatch(jobId, 1, 'u', 'g:1');
    await writeFile(join(store.dir, 'dispatch', `${jobId}.json`), '{"job_id": 3}');
    await expect(store.loadDispatch(jobId)).rejects.toBeInstanceOf(DispatchStoreError);
    await writeFile(join(store.dir, 'dispatch', `${jobId}.json`), '{"job_id": ');
    await expect(store.loadDispatch(jobId)).rejects.toMatchObject({ message: expect.stringContaining('is not JSON'), cause: expect.any(SyntaxError) });
  });

  it('readDecisions returns the logged decisions in order, and nothing for an unknown job', async () => {
    expect(await store.readDecisions(jobId)).toEqual([]);
    const base = { job_id: jobId, scenario_id: 's', reason: 'r', shadow: true as const };
    await store.logDecision({ ...base, decision: 'hold', would_complete: false });
    await store.logDecision({ ...base, decision: 'candidate_approved', would_complete: true });
    expect((await store.readDecisions(jobId)).map((d) => d.decision)).toEqual(['hold', 'candidate_approved']);
    expect((await store.readDecisions(jobId))[0]?.at).toBe('2026-09-06T00:00:00.000Z');
  });
});
