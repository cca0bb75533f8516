import type { JobRecord } from './job-record.js';
import { isTerminalStatus, type JobStatus } from './job-status.js';
import { TRANSITION_TABLE, type TransitionRequest } from './transition-table.js';

/**
 * The preconditions a transition is checked against.
 * @public
 */
export interface TransitionGuards {
  /** Refuse (`precondition failed`) unless the record is in this status. */
  expectedStatus?: JobStatus;
  /** Refuse (`stale attempt`) unless the record's `attempt_id` is this one. */
  expectedAttempt?: number;
}

/**
 * What the transition table says about one request against one record: commit to a status, or refuse (a conflict when the record is terminal).
 * @public
 */
export type TransitionDecision =
  | { kind: 'commit'; from: JobStatus; to: JobStatus; reason: string }
  | { kind: 'refuse'; from: JobStatus; reason: string; conflict: boolean };

/**
 * Decides one transition without touching anything: stale attempt, then terminal (idempotent or conflict), then precondition, then the table.
 * @example
 * ```ts
 * decideTransition(record, 'completed', { expectedAttempt: 1 }); // { kind: 'commit', from: 'running', to: 'completed', … }
 * ```
 * @public
 */
export function decideTransition(record: JobRecord, request: TransitionRequest, guards: TransitionGuards = {}): TransitionDecision {
  const from = record.status;
  const rule = TRANSITION_TABLE[request];
  if (guards.expectedAttempt !== undefined && guards.expectedAttempt !== record.attempt_id) {
    return { kind: 'refuse', from, conflict: false, reason: `stale attempt: expected attempt ${guards.expectedAttempt}, the record is at attempt ${record.attempt_id}` };
  }
  if (isTerminalStatus(from)) {
    // A repeated terminal is a no-op; anything else would walk a finished job backwards.
    if (rule.to === from) return { kind: 'refuse', from, conflict: false, reason: `idempotent: the job is already ${from}` };
    return { kind: 'refuse', from, conflict: true, reason: `conflict: ${request} refused, the job is already ${from}` };
  }
  if (guards.expectedStatus !== undefined && guards.expectedStatus !== from) {
    return { kind: 'refuse', from, conflict: false, reason: `precondition failed: expected status ${guards.expectedStatus}, the record is ${from}` };
  }
  if (rule.from !== from) {
    return { kind: 'refuse', from, conflict: false, reason: `not allowed: ${request} needs status ${rule.from}, the record is ${from}` };
  }
  return { kind: 'commit', from, to: rule.to, reason: `${request}: ${from} -> ${rule.to}` };
}
