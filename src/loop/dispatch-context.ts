/**
 * What the dispatch store recorded for one job attempt: the four identifiers, the dispatch ack, and whether execution was seen.
 * @public
 */
export interface DispatchContext {
  /** The job dispatched. */
  job_id: string;
  /** The job attempt dispatched. */
  attempt_id: number;
  /** The agent's own conversation id the prompt went to. */
  agent_session_uuid: string;
  /** `<pane_id>:<pid>:<start>` of the pane process the prompt went to. */
  pane_process_generation: string;
  /** herdr accepted the prompt (this is not execution). */
  dispatch_ack: boolean;
  /** Execution of this attempt was seen (the execution anchor). */
  execution_anchor_observed: boolean;
  /** ISO time of the dispatch. */
  dispatched_at?: string;
  /** ISO time the anchor was marked. */
  anchor_observed_at?: string;
}

/**
 * The four identifiers attribution compares.
 * @public
 */
export const ATTRIBUTION_FIELDS = ['job_id', 'attempt_id', 'agent_session_uuid', 'pane_process_generation'] as const;

/**
 * One of {@link ATTRIBUTION_FIELDS}.
 * @public
 */
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];
