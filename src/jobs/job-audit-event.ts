import type { JobStatus } from './job-status.js';
import type { TransitionRequest } from './transition-table.js';

/**
 * A committed status change, mirrored to the job's audit log after the lock is released.
 * @public
 */
export interface StatusChangedEvent {
  /** Always `status_changed`. */
  event: 'status_changed';
  /** The job whose status changed. */
  job_id: string;
  /** The status before the commit. */
  from: JobStatus;
  /** The status after the commit (a commit that keeps the status logs no event). */
  to: JobStatus;
  /** The record's `transition_seq` after the commit: the audit log is ordered by it. */
  transition_seq: number;
  /** Who asked (the caller's `source`, else the engine method's name). */
  source: string;
  /** ISO 8601 UTC time of the commit. */
  at: string;
}

/**
 * A request refused because the record is already terminal, with the status it kept.
 * @public
 */
export interface ConflictRefusedEvent {
  /** Always `conflict_refused`. */
  event: 'conflict_refused';
  /** The job whose terminal status was kept. */
  job_id: string;
  /** The request (or, from `updateJobStatus`, the status) that was refused. */
  request: TransitionRequest | JobStatus;
  /** The terminal status the record kept. */
  current: JobStatus;
  /** The record's unchanged `transition_seq`. */
  transition_seq: number;
  /** Who asked (the caller's `source`, else the engine method's name). */
  source: string;
  /** ISO 8601 UTC time of the refusal. */
  at: string;
}

/**
 * One line of a job's audit log (JSON lines, one file per job).
 * @public
 */
export type JobAuditEvent = StatusChangedEvent | ConflictRefusedEvent;
