/**
 * One row the reset gives a fresh conversation: what it is recreated from, and the instance and id it had.
 * @public
 */
export interface ResetTarget {
  name: string;
  agent: string;
  role: string;
  herdr_server: string;
  herdr_workspace: string;
  /** The conversation id the row recorded (null: none yet). */
  old_id: string | null;
  /** The row's `herdr_session_created_at` when planned (null when it had none). */
  old_created_at: string | null;
}

/**
 * A row the plan leaves alone, and why (`not the control root`, `status stopped`, `status terminated`).
 * @public
 */
export interface ResetSkippedRow {
  name: string;
  reason: string;
}

/**
 * A running control-root row that cannot be recreated (an unknown agent, an empty role), with what is wrong.
 * @public
 */
export interface ResetPlanError {
  name: string;
  problem: string;
}

/**
 * What a reset would do: the targets in registry order, the rows skipped with a reason, the orchestrator ids (never
 * reset, never rows) and the rows that make the plan fail.
 * @public
 */
export interface ResetPlan {
  targets: ResetTarget[];
  skipped: ResetSkippedRow[];
  orchestrators: string[];
  errors: ResetPlanError[];
}
