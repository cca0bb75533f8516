import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, TRANSITION_REQUESTS, TRANSITION_TABLE, decideTransition, type JobRecord, type JobStatus } from '../../../src/jobs/index.js';

const record = (status: JobStatus, attempt = 1): JobRecord => ({
  job_id: 'job-1', prompt: 'p', agent_session: null, status, attempt_id: attempt,
  created_at: 't', updated_at: 't', last_seq: 0, transition_seq: 3,
});

describe('decideTransition', () => {
  it('the table is the spec’s: claim from pending, everything else from running, deadline_timeout to error', () => {
    expect(Object.fromEntries(TRANSITION_REQUESTS.map((r) => [r, `${TRANSITION_TABLE[r].from}>${TRANSITION_TABLE[r].to}`]))).toEqual({
      claim: 'pending>running', progress: 'running>running', permission_required: 'running>running',
      completed: 'running>completed', error: 'running>error', cancelled: 'running>cancelled', deadline_timeout: 'running>error',
    });
  });

  it('commits exactly the table’s entries and refuses every other (status, request) pair', () => {
    for (const status of JOB_STATUSES) {
      for (const request of TRANSITION_REQUESTS) {
        const d = decideTransition(record(status), request);
        const allowed = TRANSITION_TABLE[request].from === status;
        expect(d.kind, `${request} from ${status}`).toBe(allowed ? 'commit' : 'refuse');
        if (d.kind === 'commit') expect(d.to).toBe(TRANSITION_TABLE[request].to);
      }
    }
  });

  it('after a terminal: the same terminal is idempotent, anything else a conflict', () => {
    expect(decideTransition(record('completed'), 'completed')).toMatchObject({ kind: 'refuse', conflict: false, reason: expect.stringContaining('idempotent') });
    expect(decideTransition(record('error'), 'deadline_timeout')).toMatchObject({ kind: 'refuse', conflict: false, reason: expect.stringContaining('idempotent') });
    expect(decideTransition(record('completed'), 'error')).toMatchObject({ kind: 'refuse', conflict: true });
    expect(decideTransition(record('cancelled'), 'claim')).toMatchObject({ kind: 'refuse', conflict: true });
  });

  it('a stale attempt is named before anything else; a precondition before the table', () => {
    expect(decideTransition(record('completed', 2), 'error', { expectedAttempt: 1 }).reason).toContain('stale attempt');
    expect(decideTransition(record('running'), 'claim', { expectedStatus: 'pending' }).reason).toContain('precondition failed');
    expect(decideTransition(record('running'), 'completed', { expectedStatus: 'running', expectedAttempt: 1 })).toMatchObject({ kind: 'commit', to: 'completed' });
  });
});
