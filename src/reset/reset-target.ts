import type { AgentName } from '../ids/agent-names.js';

/**
 * One row the reset gives a fresh conversation: what it is recreated from, and the instance and id it had (camelCase here;
 * the spec file `.mam/reset-spec.json` keeps the reference tool's snake_case keys, mapped by the spec file's reader and writer).
 * @public
 */
export interface ResetTarget {
  /** The row name. */
  name: string;
  /** The row's agent (the name of an outside agent when the planner was given it in `agents`). */
  agent: AgentName;
  /** The row's role. */
  role: string;
  /** The herdr server (session) it is recreated on. */
  herdrServer: string;
  /** The herdr workspace label it is recreated with. */
  herdrWorkspace: string;
  /** The conversation id the row recorded (null: none yet). */
  oldId: string | null;
  /** The row's `herdr_session_created_at` when planned (null when it had none). */
  oldCreatedAt: string | null;
}

/**
 * A row the plan leaves alone, and why (`not the control root`, `status stopped`, `status terminated`).
 * @public
 */
export interface ResetSkippedRow {
  /** The row name. */
  name: string;
  /** Why it is left alone. */
  reason: string;
}

/**
 * A running control-root row that cannot be recreated (an unknown agent, an empty role), with what is wrong.
 * @public
 */
export interface ResetPlanError {
  /** The row name. */
  name: string;
  /** What makes it uncreatable. */
  problem: string;
}

/**
 * What a reset would do: the targets in registry order, the rows skipped with a reason, the orchestrator ids (never
 * reset, never rows) and the rows that make the plan fail.
 * @public
 */
export interface ResetPlan {
  /** The rows to reset, in registry order. */
  targets: ResetTarget[];
  /** The rows left alone, with why. */
  skipped: ResetSkippedRow[];
  /** The registry's orchestrator ids, listed only: never reset. */
  orchestrators: string[];
  /** The rows that make the plan fail; a non-empty list refuses the run. */
  errors: ResetPlanError[];
}
