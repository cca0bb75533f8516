import type { PolicyDecisionKind } from './policy-scenario.js';

/**
 * What the shadow runner reports (and logs) for one scenario: the decision and whether it would have completed the job — it never does.
 * @public
 */
export interface ShadowEntry {
  /** The job the scenario is about (`job.job_id`, else `dispatch_context.job_id`), or null when it names none (then nothing is logged). */
  job_id: string | null;
  /** The scenario's `scenario_id`, or null when it has none. */
  scenario_id: string | null;
  /** What the policy decided. */
  decision: PolicyDecisionKind;
  /** Why, in words a person reads. */
  reason: string;
  /** True exactly when the decision is `candidate_approved`. */
  would_complete: boolean;
  /** Always true: the runner only observes. */
  shadow: true;
}

/**
 * A {@link ShadowEntry} as the dispatch store logged it, with the time.
 * @public
 */
export type LoggedShadowDecision = ShadowEntry & { job_id: string; at: string };
