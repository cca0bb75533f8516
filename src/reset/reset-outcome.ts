import type { ResetRefusal } from './reset-refusal.js';
import type { ResetTableRow } from './reset-table.js';

/**
 * The exit codes of a reset: 0 all done, 1 refused or a step failed, 3 no confirmation off a terminal, 4 something
 * skipped or pending, 5 created but an id not recorded yet, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM.
 * @public
 */
export type ResetExitCode = 0 | 1 | 3 | 4 | 5 | 129 | 130 | 143;

/**
 * What every reset outcome carries: the rendered table and its rows, the text a person reads, and whether the spec is
 * kept for a rerun.
 * @public
 */
export interface ResetOutcomeBase {
  /** The rendered result table; empty when no target was handled. */
  table: string;
  /** The table's rows, one per target in spec order. */
  rows: ResetTableRow[];
  /** What a person reads: the dry-run listing, the refusal, the fault or the interruption; empty when there is nothing to say. */
  message: string;
  /** True when `.mam/reset-spec.json` is kept for a rerun to finish. */
  specKept: boolean;
}

/**
 * Every target done; the spec is removed.
 * @public
 */
export interface ResetDone extends ResetOutcomeBase {
  /** All done. */
  kind: 'done';
  /** Always 0. */
  exitCode: 0;
  /** Always false: a done run removes the spec. */
  specKept: false;
}

/**
 * The run was refused before any target was touched: by the precheck (its `refusals`), an unanswered confirmation or a
 * live loop guard (no refusals then; `message` says why).
 * @public
 */
export interface ResetRefused extends ResetOutcomeBase {
  /** Refused. */
  kind: 'refused';
  /** Always 1. */
  exitCode: 1;
  /** The precheck's refusals with their evidence; empty when the refusal came from elsewhere. */
  refusals: ResetRefusal[];
}

/**
 * A run off a terminal without `yes`: nothing was done.
 * @public
 */
export interface ResetNeedsConfirmation extends ResetOutcomeBase {
  /** Needs `yes`. */
  kind: 'needs-confirmation';
  /** Always 3. */
  exitCode: 3;
  /** Always false. */
  specKept: false;
}

/**
 * A dry run: `message` is the listing (targets, skipped rows, orchestrators); nothing was touched.
 * @public
 */
export interface ResetDryRun extends ResetOutcomeBase {
  /** A dry run. */
  kind: 'dry-run';
  /** Always 0. */
  exitCode: 0;
  /** Always false: a dry run writes no spec. */
  specKept: false;
}

/**
 * A target was skipped or is pending (4), or created with its id not recorded yet (5); the spec is kept.
 * @public
 */
export interface ResetIncomplete extends ResetOutcomeBase {
  /** Incomplete. */
  kind: 'incomplete';
  /** 4 skipped or pending, 5 an id not recorded yet. */
  exitCode: 4 | 5;
}

/**
 * A step failed, or a fault stopped the run (`message` says which); the table shows how far each target got.
 * @public
 */
export interface ResetFailed extends ResetOutcomeBase {
  /** Failed. */
  kind: 'failed';
  /** Always 1. */
  exitCode: 1;
}

/**
 * A signal stopped the run between steps; the exit code is the signal's (129 SIGHUP, 130 SIGINT, 143 SIGTERM).
 * @public
 */
export interface ResetInterrupted extends ResetOutcomeBase {
  /** Interrupted. */
  kind: 'interrupted';
  /** The signal's exit code. */
  exitCode: 129 | 130 | 143;
}

/**
 * What a reset run ended with, a union on `kind` (each member's `exitCode` typed to what it can be; `refusals` only on
 * `refused`): all done, refused, unconfirmed, a dry run, a target skipped or pending, a create failed, or stopped by a
 * signal.
 * @public
 */
export type ResetOutcome = ResetDone | ResetRefused | ResetNeedsConfirmation | ResetDryRun | ResetIncomplete | ResetFailed | ResetInterrupted;
