import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_STATUSES, JobEngine, TRANSITION_REQUESTS, TRANSITION_TABLE, decideTransition, isTerminalStatus, type JobRecord, type TransitionRequest } from '../../src/jobs/index.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { FakeClock } from '../../src/testing/fs/index.js';
import { makeJobsWorkspace } from '../helpers/jobs-workspace.js';

const request = fc.constantFrom(...TRANSITION_REQUESTS);
const status = fc.constantFrom(...JOB_STATUSES);
const step = fc.record({ request, expectedStatus: fc.option(status, { nil: undefined }), expectedAttempt: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }) });

describe('transition laws', () => {
  it('decideTransition: a terminal never becomes anything else, and a commit always follows the table', () => {
    fc.assert(
      fc.property(status, request, fc.integer({ min: 1, max: 3 }), fc.option(status, { nil: undefined }), fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), (from, req, attempt, expectedStatus, expectedAttempt) => {
        const rec: JobRecord = { job_id: 'j', prompt: '', agent_session: null, status: from, attempt_id: attempt, created_at: '', updated_at: '', last_seq: 0, transition_seq: 0 };
        const guards = { ...(expectedStatus === undefined ? {} : { expectedStatus }), ...(expectedAttempt === undefined ? {} : { expectedAttempt }) };
        const d = decideTransition(rec, req, guards);
        if (isTerminalStatus(from)) expect(d.kind).toBe('refuse');
        if (d.kind === 'commit') {
          expect(TRANSITION_TABLE[req]).toEqual({ from, to: d.to });
          expect(expectedStatus === undefined || expectedStatus === from).toBe(true);
          expect(expectedAttempt === undefined || expectedAttempt === attempt).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  describe('the engine against a model, on a real registry', () => {
    let registryDir: string;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      ({ registryDir, dispose } = await makeJobsWorkspace('prop'));
    });
    afterAll(async () => {
      await dispose();
    });

    it('transition_seq grows by one exactly on each commit, the status follows the table, and a terminal is kept forever', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
          const engine = new JobEngine(registryDir, { ports: { fs: new NodeFileSystem(), clock: new FakeClock({ autoAdvance: true }) } });
          const job = await engine.registerJob('p', { jobId: `job-${n++}` });
          let model = { status: job.status, seq: 0 };
          for (const s of steps) {
            const opts = { ...(s.expectedStatus === undefined ? {} : { expectedStatus: s.expectedStatus }), ...(s.expectedAttempt === undefined ? {} : { expectedAttempt: s.expectedAttempt }) };
            const r = await engine.transition(job.job_id, s.request as TransitionRequest, opts);
            const expected = decideTransition({ ...job, status: model.status }, s.request, opts);
            expect(r.committed).toBe(expected.kind === 'commit');
            if (r.committed) model = { status: r.toStatus, seq: model.seq + 1 };
            const rec = await engine.load(job.job_id);
            expect([rec.status, rec.transition_seq]).toEqual([model.status, model.seq]);
          }
          const changes = (await engine.audit.read(job.job_id)).filter((e) => e.event === 'status_changed');
          const seqs = changes.map((e) => e.transition_seq);
          expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
          expect(changes.at(-1)?.to ?? 'pending').toBe(model.status);
        }),
        { numRuns: 40 },
      );
    });
  });
});
