import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobAuditError, JobAuditLog, type JobAuditEvent } from '../../../src/jobs/index.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { RecordingFileSystem } from '../../../src/testing/fs/index.js';
import { makeJobsWorkspace } from '../../helpers/jobs-workspace.js';

const changed = (seq: number, to: 'running' | 'completed'): JobAuditEvent => ({
  event: 'status_changed', job_id: 'job-1', from: 'pending', to, transition_seq: seq, source: 't', at: 'x',
});

describe('JobAuditLog', () => {
  let logsDir: string;
  let dispose: () => Promise<void>;

  beforeEach(async () => {
    ({ logsDir, dispose } = await makeJobsWorkspace('audit'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('appends JSON lines to <logs_dir>/<job_id>.jsonl and reads them back ordered by transition_seq', async () => {
    const log = new JobAuditLog(logsDir, new NodeFileSystem());
    await log.append('job-1', [changed(2, 'completed')]);
    await log.append('job-1', [changed(1, 'running')]);
    const lines = (await readFile(join(logsDir, 'job-1.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as JobAuditEvent).transition_seq)).toEqual([2, 1]);
    expect((await log.read('job-1')).map((e) => e.transition_seq)).toEqual([1, 2]);
    expect(await log.lastStatus('job-1')).toBe('completed');
  });

  it('a torn last line is skipped; an unknown job has no events', async () => {
    const log = new JobAuditLog(logsDir, new NodeFileSystem());
    await log.append('job-1', [changed(1, 'running')]);
    await appendFile(join(logsDir, 'job-1.jsonl'), '{"event":"status_ch');
    expect(await log.read('job-1')).toHaveLength(1);
    expect(await log.read('job-2')).toEqual([]);
    expect(await log.lastStatus('job-2')).toBeNull();
  });

  it('a failed append is JOB_AUDIT_FAILED with the cause', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'writeFile' ? 'ENOSPC' : null) });
    const err = await new JobAuditLog(logsDir, fs).append('job-1', [changed(1, 'running')]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobAuditError);
    expect(err).toMatchObject({ code: 'JOB_AUDIT_FAILED', data: { jobId: 'job-1', committed: true }, cause: { code: 'NoSpace' } });
  });
});
