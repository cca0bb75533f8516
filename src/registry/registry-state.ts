import type { RegistryIssue } from './registry-issue.js';
import type { SessionRow } from './session-row.js';

/**
 * The content of `.mam/agent-sessions.yaml`: the rows, the orchestrator ids (bare, no row), and every other top-level
 * key the file had, kept as it is and in its order.
 * @public
 */
export interface RegistryState {
  herdr_sessions: SessionRow[];
  orchestrator_uuids: string[];
  [key: string]: unknown;
}

/**
 * A row that failed validation, as the file has it, with what is wrong.
 * @public
 */
export interface InvalidRow {
  /** Its index in the file's `herdr_sessions`. */
  index: number;
  /** Its name, when it has a usable one. */
  name?: string;
  /** The row as read (a mapping, or whatever the list held). */
  row: unknown;
  issues: RegistryIssue[];
}

/**
 * A lenient read: the valid rows in `state`, the others in `invalidRows` (for a planner that reports each bad row).
 * @public
 */
export interface RegistryInspection {
  state: RegistryState;
  invalidRows: InvalidRow[];
}
