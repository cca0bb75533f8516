import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobArgumentError, JobEngine, JobNotFoundError, JobRecordCorruptError, type TransitionRequest } from '../../../src/jobs/index.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { FakeClock, RecordingFileSystem } from '../../../src/testing/fs/index.js';
import { fingerprintDir, makeJobsWorkspace } from '../../helpers/jobs-workspace.js';

describe('JobEngine', () => {
  let registryDir: string;
  let dispose: () => Promise<void>;
  let clock: FakeClock;
  let engine: JobEngine;

  beforeEach(async () => {
    ({ registryDir, dispose } = await makeJobsWorkspace('engine'));
    clock = new FakeClock({ now: Date.UTC(2026, 8, 6), autoAdvance: true });
    engine = new JobEngine(registryDir, { ports: { fs: new NodeFileSystem(), clock } });
  });
  afterEach(async () => {
    await dispose();
  });

  const onDisk = async (jobId: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(join(registryDir, `${jobId}.json`), 'utf8')) as Record<string, unknown>;

  describe('records', () => {
    it('registerJob writes <registry_dir>/<job_id>.json as pending, attempt 1, counters 0, and makes the working dir', async () => {
      const job = await engine.registerJob('review the diff', { agentSession: 'herdr:s1', fields: { iteration: 0 } });
      expect(job.job_id).toMatch(/^job-20260906T000000Z-[0-9a-f]{8}$/);
      expect(await onDisk(job.job_id)).toEqual({
        job_id: job.job_id, prompt: 'review the diff', agent_session: 'herdr:s1', status: 'pending', attempt_id: 1,
        created_at: '2026-09-06T00:00:00.000Z', updated_at: '2026-09-06T00:00:00.000Z', last_seq: 0, transition_seq: 0, iteration: 0,
      });
      expect(Object.keys(await fingerprintDir(registryDir))).toContain(`${job.job_id}/`);
      expect(await engine.load(job.job_id)).toEqual(job);
    });

    it('an explicit job id is used once; a second register with it is an argument error and writes nothing', async () => {
      await engine.registerJob('p', { jobId: 'job-a' });
      const before = await fingerprintDir(registryDir);
      await expect(engine.registerJob('q', { jobId: 'job-a' })).rejects.toBeInstanceOf(JobArgumentError);
      expect(await fingerprintDir(registryDir)).toEqual(before);
    });

    it('an id that could escape the registry is refused before any path is built', async () => {
      for (const bad of ['../x', 'a/b', '.hidden', '', 'x.json']) {
        await expect(engine.registerJob('p', { jobId: bad }), bad).rejects.toMatchObject({ code: 'JOB_INVALID_ARGUMENT' });
        await expect(engine.load(bad), bad).rejects.toMatchObject({ code: 'JOB_INVALID_ARGUMENT' });
      }
    });

    it('load: a missing record is JOB_NOT_FOUND, a corrupt one JOB_RECORD_CORRUPT', async () => {
      await expect(engine.load('job-none')).rejects.toBeInstanceOf(JobNotFoundError);
      const job = await engine.registerJob('p');
      await writeFile(join(registryDir, `${job.job_id}.json`), '{"job_id":');
      await expect(engine.load(job.job_id)).rejects.toBeInstanceOf(JobRecordCorruptError);
      await writeFile(join(registryDir, `${job.job_id}.json`), JSON.stringify({ job_id: job.job_id, status: 'weird' }));
      await expect(engine.transition(job.job_id, 'claim')).rejects.toMatchObject({ code: 'JOB_RECORD_CORRUPT' });
    });

    it('list returns every record and skips the lock, temps and working dirs', async () => {
      const a = await engine.registerJob('a', { jobId: 'job-a' });
      const b = await engine.registerJob('b', { jobId: 'job-b' });
      await writeFile(join(registryDir, '.job-a.json.0000.tmp'), 'x');
      expect((await engine.list()).map((r) => r.job_id)).toEqual([a.job_id, b.job_id]);
    });
  });

  describe('X-01..X-04: the writers keep their contracts', () => {
    it('X-01 updateJobStatus merges arbitrary fields and always refreshes updated_at', async () => {
      const job = await engine.registerJob('p');
      await clock.advance(5_000);
      const out = await engine.updateJobStatus(job.job_id, { status: 'running', iteration: 4 });
      expect(out.committed).toBe(true);
      expect(out.record).toMatchObject({ status: 'running', iteration: 4, updated_at: '2026-09-06T00:00:05.000Z' });
      expect(await onDisk(job.job_id)).toMatchObject({ status: 'running', iteration: 4 });
      await clock.advance(1_000);
      const again = await engine.updateJobStatus(job.job_id, { note: 'x' });
      expect(again.record).toMatchObject({ status: 'running', note: 'x', iteration: 4, updated_at: '2026-09-06T00:00:06.000Z' });
    });

    it('X-02 pickPending claims only pending, only once, never another session’s', async () => {
      const job = await engine.registerJob('p', { agentSession: 'herdr:s1' });
      expect((await engine.pickPending('herdr:s1'))?.job_id).toBe(job.job_id);
      expect((await engine.load(job.job_id)).status).toBe('running');
      expect(await engine.pickPending('herdr:s1')).toBeNull();
      const other = await engine.registerJob('q', { agentSession: 'herdr:s2' });
      expect(await engine.pickPending('herdr:s1')).toBeNull();
      expect((await engine.pickPending('herdr:s2'))?.job_id).toBe(other.job_id);
    });

    it('X-02 pickPending takes the oldest pending job of the session first', async () => {
      const first = await engine.registerJob('1', { agentSession: 'herdr:s', jobId: 'job-z' });
      await clock.advance(1_000);
      const second = await engine.registerJob('2', { agentSession: 'herdr:s', jobId: 'job-a' });
      expect((await engine.pickPending('herdr:s'))?.job_id).toBe(first.job_id);
      expect((await engine.pickPending('herdr:s'))?.job_id).toBe(second.job_id);
    });

    it('X-03 a status write is mirrored into the audit log', async () => {
      const job = await engine.registerJob('p');
      await engine.updateJobStatus(job.job_id, { status: 'completed' });
      expect(await engine.audit.lastStatus(job.job_id)).toBe('completed');
      const changes = (await engine.audit.read(job.job_id)).filter((e) => e.event === 'status_changed');
      expect(changes.at(-1)).toMatchObject({ from: 'pending', to: 'completed', transition_seq: 1, source: 'updateJobStatus' });
    });

    it('X-04 nextSeq bumps last_seq and never touches status or transition_seq', async () => {
      const job = await engine.registerJob('p');
      expect(await engine.nextSeq(job.job_id)).toBe(1);
      expect(await engine.nextSeq(job.job_id)).toBe(2);
      expect(await onDisk(job.job_id)).toMatchObject({ last_seq: 2, status: 'pending', transition_seq: 0 });
      expect(await engine.audit.read(job.job_id)).toEqual([]);
    });

    it('updateJobStatus never moves a terminal record elsewhere: refused, audited, no write', async () => {
      const job = await engine.registerJob('p');
      await engine.updateJobStatus(job.job_id, { status: 'completed' });
      const before = await fingerprintDir(registryDir);
      const out = await engine.updateJobStatus(job.job_id, { status: 'running', iteration: 9 }, { source: 'late' });
      expect(out).toMatchObject({ committed: false, record: { status: 'completed' } });
      expect(out.reason).toContain('conflict');
      expect(await fingerprintDir(registryDir)).toEqual(before);
      expect((await engine.audit.read(job.job_id)).at(-1)).toMatchObject({ event: 'conflict_refused', request: 'running', current: 'completed', source: 'late' });
    });

    it('reserved fields and unknown statuses are argument errors, not merges', async () => {
      const job = await engine.registerJob('p');
      await expect(engine.updateJobStatus(job.job_id, { transition_seq: 99 })).rejects.toBeInstanceOf(JobArgumentError);
      await expect(engine.updateJobStatus(job.job_id, { status: 'done' as never })).rejects.toBeInstanceOf(JobArgumentError);
      await expect(engine.transition(job.job_id, 'claim', { fields: { status: 'completed' } })).rejects.toBeInstanceOf(JobArgumentError);
      await expect(engine.transition(job.job_id, 'claim', { fields: { attempt_id: 1.5 } })).rejects.toBeInstanceOf(JobArgumentError);
      await expect(engine.transition(job.job_id, 'finish' as TransitionRequest)).rejects.toBeInstanceOf(JobArgumentError);
      expect((await engine.load(job.job_id)).transition_seq).toBe(0);
    });
  });

  describe('the transition table', () => {
    it('claim moves pending to running', async () => {
      const job = await engine.registerJob('p');
      const r = await engine.transition(job.job_id, 'claim', { expectedStatus: 'pending' });
      expect(r).toMatchObject({ committed: true, fromStatus: 'pending', toStatus: 'running', transitionSeq: 1 });
    });

    it.each(['progress', 'permission_required'] as const)('%s keeps running and merges its fields', async (request) => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      const r = await engine.transition(job.job_id, request, { fields: { blocked_reason: 'tool' } });
      expect(r).toMatchObject({ committed: true, toStatus: 'running' });
      expect(await onDisk(job.job_id)).toMatchObject({ status: 'running', blocked_reason: 'tool', transition_seq: 2 });
    });

    it.each(['completed', 'error', 'cancelled'] as const)('an explicit %s commits that terminal', async (terminal) => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      expect(await engine.transition(job.job_id, terminal)).toMatchObject({ committed: true, toStatus: terminal });
      expect(await engine.audit.lastStatus(job.job_id)).toBe(terminal);
    });

    it('deadline_timeout becomes error', async () => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      expect(await engine.transition(job.job_id, 'deadline_timeout')).toMatchObject({ committed: true, toStatus: 'error' });
    });

    it('the same terminal again is an idempotent no-op with no write at all', async () => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      await engine.transition(job.job_id, 'completed');
      const before = await fingerprintDir(registryDir);
      const auditBefore = await engine.audit.read(job.job_id);
      await clock.advance(10_000);
      const r = await engine.transition(job.job_id, 'completed');
      expect(r.committed).toBe(false);
      expect(r.reason).toContain('idempotent');
      expect(await fingerprintDir(registryDir)).toEqual(before);
      expect(await engine.audit.read(job.job_id)).toEqual(auditBefore);
    });

    it.each(['error', 'cancelled', 'progress'] as const)('a late %s never reverses a terminal, and the conflict is audited', async (late) => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      await engine.transition(job.job_id, 'completed');
      const before = await fingerprintDir(registryDir);
      const r = await engine.transition(job.job_id, late, { source: 'late-arrival' });
      expect(r).toMatchObject({ committed: false, fromStatus: 'completed', toStatus: 'completed' });
      expect(await fingerprintDir(registryDir)).toEqual(before);
      const refusals = (await engine.audit.read(job.job_id)).filter((e) => e.event === 'conflict_refused');
      expect(refusals.at(-1)).toMatchObject({ request: late, current: 'completed', source: 'late-arrival' });
    });

    it('a stale attempt is refused', async () => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim', { fields: { attempt_id: 2 } });
      const r = await engine.transition(job.job_id, 'completed', { expectedAttempt: 1 });
      expect(r.committed).toBe(false);
      expect(r.reason).toContain('stale attempt');
      expect((await engine.load(job.job_id)).status).toBe('running');
      expect(await engine.transition(job.job_id, 'completed', { expectedAttempt: 2 })).toMatchObject({ committed: true });
    });

    it('a failed precondition does not write', async () => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      const before = await fingerprintDir(registryDir);
      const r = await engine.transition(job.job_id, 'claim', { expectedStatus: 'pending' });
      expect(r.committed).toBe(false);
      expect(r.reason).toContain('precondition failed');
      expect(await fingerprintDir(registryDir)).toEqual(before);
    });

    it('a request the table does not allow from the current status is refused (completed straight from pending)', async () => {
      const job = await engine.registerJob('p');
      const r = await engine.transition(job.job_id, 'completed');
      expect(r).toMatchObject({ committed: false, toStatus: 'pending' });
      expect(r.reason).toContain('not allowed');
    });

    it('transition_seq is monotonic, one step per commit, and updated_at is refreshed each time', async () => {
      const job = await engine.registerJob('p');
      const seen: Array<[number, unknown]> = [];
      for (const req of ['claim', 'progress', 'progress', 'completed'] as const) {
        await clock.advance(1_000);
        await engine.transition(job.job_id, req);
        const rec = await onDisk(job.job_id);
        seen.push([rec['transition_seq'] as number, rec['updated_at']]);
      }
      expect(seen.map(([s]) => s)).toEqual([1, 2, 3, 4]);
      expect(new Set(seen.map(([, u]) => u)).size).toBe(4);
    });

    it('the audit log lives in .mam/logs/jobs/<job_id>.jsonl by default, outside the registry', async () => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim');
      const logsDir = join(registryDir, '..', 'logs', 'jobs');
      expect((await readFile(join(logsDir, `${job.job_id}.jsonl`), 'utf8')).trimEnd().split('\n')).toHaveLength(1);
      expect(Object.keys(await fingerprintDir(registryDir)).some((f) => f.endsWith('.jsonl'))).toBe(false);
    });

    it('an audit append that fails after the commit throws JOB_AUDIT_FAILED, and the record keeps the commit', async () => {
      const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.path.endsWith('.jsonl') ? 'EIO' : null) });
      const failing = new JobEngine(registryDir, { ports: { fs, clock } });
      const job = await failing.registerJob('p');
      await expect(failing.transition(job.job_id, 'claim')).rejects.toMatchObject({ code: 'JOB_AUDIT_FAILED', data: { committed: true } });
      expect((await engine.load(job.job_id)).status).toBe('running');
    });

    it('the audit log is ordered by transition_seq and names from, to and source', async () => {
      const job = await engine.registerJob('p');
      await engine.transition(job.job_id, 'claim', { source: 'wrapper' });
      await engine.transition(job.job_id, 'completed', { source: 'watcher' });
      expect((await engine.audit.read(job.job_id)).map((e) => [e.event, e.transition_seq, e.source])).toEqual([
        ['status_changed', 1, 'wrapper'],
        ['status_changed', 2, 'watcher'],
      ]);
    });
  });
});
