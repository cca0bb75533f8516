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
  /** The process exit code the run means. */
  exitCode: ResetExitCode;
  /**
   * How it ended: all done, refused, unconfirmed, a dry run, a target skipped or pending, a create failed, or stopped
   * by a signal.
   */
  kind: 'done' | 'refused' | 'needs-confirmation' | 'dry-run' | 'incomplete' | 'failed' | 'interrupted';
  /** The rendered result table; empty when no target was handled. */
  table: string;
  /** The table's rows, one per target in spec order. */
  rows: ResetTableRow[];
  /** Why the run was refused (empty unless `kind` is `refused` by the precheck). */
  refusals: ResetRefusal[];
  /** What a person reads: the dry-run listing, the refusal, or the interruption; empty otherwise. */
  message: string;
  /** True when `.mam/reset-spec.json` is kept for a rerun to finish. */
  specKept: boolean;
}
