import type { DispatchContext } from './dispatch-context.js';

/**
 * Every decision {@link ShadowPolicy.decide} can give.
 * @public
 */
export const POLICY_DECISIONS = ['reobserve', 'blocked', 'reject', 'hold', 'candidate_approved'] as const;

/**
 * One of {@link POLICY_DECISIONS}.
 * @public
 */
export type PolicyDecisionKind = (typeof POLICY_DECISIONS)[number];

/**
 * A decision and the reason for it.
 * @public
 */
export interface PolicyDecision {
  /** What the policy decided. */
  decision: PolicyDecisionKind;
  /** Why, in words a person reads. */
  reason: string;
}

/**
 * The evidence one decision rests on, as in `policy-scenarios/*.json`; every block is optional, and a missing block is absent evidence, never a pass.
 * @public
 */
export interface PolicyScenario {
  /** The vector's id (ignored by `decide`). */
  scenario_id?: string;
  /** What the vector is about (ignored by `decide`). */
  description?: string;
  /** The job record as the loop sees it. */
  job?: { job_id?: string; status?: string; attempt_id?: number; [extra: string]: unknown };
  /** What the dispatch store recorded. */
  dispatch_context?: Partial<DispatchContext> & { [extra: string]: unknown };
  /** What the watcher saw: did the socket answer, how old the snapshot is, herdr's agent snapshot, and the identifiers observed now. */
  observation?: {
    transport?: 'ok' | 'disconnected' | 'error' | (string & {});
    snapshot_age_ms?: number;
    agent?: { agent_status?: string; pane_id?: string; [extra: string]: unknown };
    job_id?: string;
    attempt_id?: number;
    agent_session_uuid?: string;
    pane_process_generation?: string;
    [extra: string]: unknown;
  };
  /** How long the agent has been idle (`idle_for_ms`) and how long it must be (`required_idle_ms`). */
  quiescence?: { idle_for_ms?: number; required_idle_ms?: number; [extra: string]: unknown };
  /** The report evidence: present, its mtime stable for how many ms, the manifest committed, its hash verified. */
  filesystem?: { report_present?: boolean; report_mtime_stable_ms?: number; manifest_committed?: boolean; hash_verified?: boolean; [extra: string]: unknown };
  /** Bounds: `max_snapshot_age_ms`, the oldest snapshot the policy still trusts. */
  limits?: { max_snapshot_age_ms?: number; [extra: string]: unknown };
  /** The vector's expected answer (ignored by `decide`). */
  expected_policy?: { decision?: string; reason_contains?: string };
  /** Any other field, kept and ignored. */
  [extra: string]: unknown;
}
