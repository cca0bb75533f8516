import type { ResetRefusal } from './reset-refusal.js';
import type { ResetTableRow } from './reset-table.js';

/**
 * The exit codes of a reset: 0 all done, 1 refused or a step failed, 3 no confirmation off a terminal, 4 something
 * skipped or pending, 5 created but an id not recorded yet, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM.
 * @public
 */
export type ResetExitCode = 0 | 1 | 3 | 4 | 5 | 129 | 130 | 143;

/**
 * What a reset run ended with: its exit code and kind, the rendered table and its rows, the refusals (if refused), the
 * text a person reads (dry-run listing or refusal), and whether the spec is still kept for a rerun.
 * @public
 */
export interface ResetOutcome {
  exitCode: ResetExitCode;
  kind: 'done' | 'refused' | 'needs-confirmation' | 'dry-run' | 'incomplete' | 'failed' | 'interrupted';
  table: string;
  rows: ResetTableRow[];
  refusals: ResetRefusal[];
  message: string;
  specKept: boolean;
}
