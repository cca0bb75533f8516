import type { JobStatus } from './job-status.js';
import type { TransitionRequest } from './transition-table.js';

/**
 * A committed status change, mirrored to the job's audit log after the lock is released.
 * @public
 */
export interface StatusChangedEvent {
  event: 'status_changed';
  job_id: string;
  from: JobStatus;
  to: JobStatus;
  /** The record's `transition_seq` after the commit: the audit log is ordered by it. */
  transition_seq: number;
  source: string;
  /** ISO 8601 UTC time of the commit. */
  at: string;
}

/**
 * A request refused because the record is already terminal, with the status it kept.
 * @public
 */
export interface ConflictRefusedEvent {
  event: 'conflict_refused';
  job_id: string;
  /** The request (or, from `updateJobStatus`, the status) that was refused. */
  request: TransitionRequest | JobStatus;
  current: JobStatus;
  /** The record's unchanged `transition_seq`. */
  transition_seq: number;
  source: string;
  at: string;
}

/**
 * One line of a job's audit log (JSON lines, one file per job).
 * @public
 */
export type JobAuditEvent = StatusChangedEvent | ConflictRefusedEvent;
