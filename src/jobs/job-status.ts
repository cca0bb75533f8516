/**
 * Every status a job record can be in.
 * @public
 */
export const JOB_STATUSES = ['pending', 'running', 'completed', 'error', 'cancelled'] as const;

/**
 * A job's status: `pending` until claimed, `running`, then one terminal.
 * @public
 */
export type JobStatus = (typeof JOB_STATUSES)[number];

/**
 * The statuses a job never leaves.
 * @public
 */
export type TerminalJobStatus = 'completed' | 'error' | 'cancelled';

/**
 * True for `completed`, `error` and `cancelled`: the statuses a job never leaves.
 * @public
 */
export function isTerminalStatus(status: JobStatus): status is TerminalJobStatus {
  return status === 'completed' || status === 'error' || status === 'cancelled';
}

/**
 * True when `value` is one of {@link JOB_STATUSES}.
 * @public
 */
export function isJobStatus(value: unknown): value is JobStatus {
  return typeof value === 'string' && (JOB_STATUSES as readonly string[]).includes(value);
}
