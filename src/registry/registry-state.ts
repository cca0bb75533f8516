import type { RegistryIssue } from './registry-issue.js';
import type { SessionRow } from './session-row.js';

/**
 * The content of `.mam/agent-sessions.yaml`: the rows, the orchestrator ids (bare, no row), and every other top-level
 * key the file had, kept as it is and in its order.
 * @public
 */
export interface RegistryState {
  /** The session rows, in file order; names are unique. */
  herdr_sessions: SessionRow[];
  /** Conversation ids of orchestrators: bare ids, no row, never reset. */
  orchestrator_uuids: string[];
  /** Any other top-level key the file had, kept as it is. */
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
  /** What is wrong with it. */
  issues: RegistryIssue[];
}

/**
 * A lenient read: the valid rows in `state`, the others in `invalidRows` (for a planner that reports each bad row).
 * @public
 */
export interface RegistryInspection {
  /** The registry with only the rows that passed validation. */
  state: RegistryState;
  /** The rows that failed, in file order. */
  invalidRows: InvalidRow[];
}
