import type { JobStatus } from './job-status.js';

/**
 * What a caller asks of a job record.
 * @public
 */
export type TransitionRequest = 'claim' | 'progress' | 'permission_required' | 'completed' | 'error' | 'cancelled' | 'deadline_timeout';

/**
 * Every {@link TransitionRequest}.
 * @public
 */
export const TRANSITION_REQUESTS: readonly TransitionRequest[] = ['claim', 'progress', 'permission_required', 'completed', 'error', 'cancelled', 'deadline_timeout'];

/**
 * The transition table: for each request, the one status it starts from and the status it leads to.
 * @public
 */
export const TRANSITION_TABLE: Readonly<Record<TransitionRequest, { from: JobStatus; to: JobStatus }>> = {
  claim: { from: 'pending', to: 'running' },
  progress: { from: 'running', to: 'running' },
  permission_required: { from: 'running', to: 'running' },
  completed: { from: 'running', to: 'completed' },
  error: { from: 'running', to: 'error' },
  cancelled: { from: 'running', to: 'cancelled' },
  deadline_timeout: { from: 'running', to: 'error' },
};

/**
 * True when `value` is one of {@link TRANSITION_REQUESTS}.
 * @public
 */
export function isTransitionRequest(value: unknown): value is TransitionRequest {
  return typeof value === 'string' && Object.hasOwn(TRANSITION_TABLE, value);
}
