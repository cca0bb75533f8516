// `@mam/core/reset`: Reset of running agents to fresh conversations: the planner, its outcomes, entries and table.
// The whole part; its documented names are also exported by the package root.

// reset
export { type PrecheckResult } from '../reset/precheck-reset.js';
export { type ResetEntry, type ResetEntryState } from '../reset/reset-entry.js';
export { type ResetDone, type ResetDryRun, type ResetExitCode, type ResetFailed, type ResetIncomplete, type ResetInterrupted, type ResetNeedsConfirmation, type ResetOutcome, type ResetOutcomeBase, type ResetRefused } from '../reset/reset-outcome.js';
export { ResetPlanner, type ResetPlannerOptions } from '../reset/reset-planner.js';
export { type ResetRefusal } from '../reset/reset-refusal.js';
export { ResetSpecError } from '../reset/reset-spec-error.js';
export { type ResetSpec } from '../reset/reset-spec-file.js';
export { type ResetStepOutcome } from '../reset/reset-step.js';
export { type ResetRowState, type ResetRunNote, type ResetTableRow } from '../reset/reset-table.js';
export { type ResetPlan, type ResetPlanError, type ResetSkippedRow, type ResetTarget } from '../reset/reset-target.js';
export { type ResetRunOptions } from '../reset/run-reset.js';
