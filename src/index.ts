// The public API of `@mam/core`: every name a user may import from the package root, listed explicitly (internals stay in
// their modules; tests import those from src). The list is pinned by test/unit/package/export-lists.test.ts — after adding
// a public name here, regenerate its snapshot with `npx vitest run test/unit/package/export-lists.test.ts -u` and add a
// CHANGELOG line.

// errors
export { describeError, InvalidIdError, isMamError, isPortError, MamError, type MamErrorCode, PortError, type PortErrorCode, toPortError, UnknownAgentError } from './errors.js';
export { InvalidArgumentError } from './invalid-argument-error.js';
export type * from './ports/index.js';

// ids
export * from './ids/index.js';

// paths
export * from './paths/index.js';

// atomic
export * from './atomic/index.js';

// sqlite
export { dbRowsNaming, type DbRowsNamingOptions, type IdTable } from './sqlite/db-rows-naming.js';
export { dbWriteRefusal } from './sqlite/db-write-guard.js';
export { type OpenReadonlyOptions, type ReadRoute } from './sqlite/open-readonly.js';
export { openReadonly, type ReadonlyDb, withReadonlyDb } from './sqlite/readonly-db.js';
export { type ReadScopeStats, withReadScope } from './sqlite/read-scope.js';
export { type SqliteDatabase, type SqliteStatement } from './sqlite/sqlite-database.js';
export { SqliteReadError } from './sqlite/sqlite-read-error.js';
export { SqliteBindingError } from './sqlite/driver.js';
export { detectWalState, type WalState } from './sqlite/wal-state.js';

// process
export { agentCliName } from './process/agent-cli-name.js';
export { helperChain, type HelperChain } from './process/helper-chain.js';
export { processesNaming } from './process/processes-naming.js';
export { isLiveProcess } from './ports/process-live.js';

// herdr
export { HerdrCommandPort, type HerdrRunContext, type HerdrRunner } from './herdr/command-port.js';
export { type HerdrOp } from './herdr/commands.js';
export { type HerdrRawOutput } from './herdr/output.js';
export { isValidHerdrAgentName, sanitizeHerdrAgentName } from './herdr/sanitize.js';

// node
export { HerdrCli, type HerdrCliOptions } from './node/herdr-cli.js';
export { type HerdrProcessRunner, runHerdrProcess } from './node/herdr-process.js';
export { NodeClock } from './node/node-clock.js';
export { NodeFileSystem, type NodeFileSystemOptions } from './node/node-fs.js';
export { nodePorts, type NodePortsOptions, resolvePorts } from './node/node-ports.js';
export { NodeProcessPort, type NodeProcessPortOptions } from './node/node-process.js';

// adapters
export { adaptersOf, type AdapterSet } from './adapters/adapters-of.js';
export { AgyAdapter } from './adapters/agy/agy-adapter.js';
export { type ClaudeArtifactScan } from './adapters/claude/artifact-scan.js';
export { ClaudeAdapter } from './adapters/claude/claude-adapter.js';
export { type ClaudeLocations } from './adapters/claude/claude-locations.js';
export { type ClaudeSessionFile } from './adapters/claude/session-files.js';
export { CodexAdapter } from './adapters/codex/codex-adapter.js';
export { type ArtifactPath, type PurgeReport } from './adapters/common/artifacts.js';
export { BaseAdapter } from './adapters/common/base-adapter.js';
export { SESSION_ENV_VARS } from './adapters/common/session-env.js';
export { getAdapter } from './adapters/get-adapter.js';
export { GrokAdapter } from './adapters/grok/grok-adapter.js';
export { HermesAdapter } from './adapters/hermes/hermes-adapter.js';
export { OpencodeAdapter } from './adapters/opencode/opencode-adapter.js';
export { type OpencodeLocation } from './adapters/opencode/opencode-locator.js';
export type * from './adapters/types.js';

// purge
export { PurgeService } from './purge/purge-service.js';
export { PURGE_EXIT_CODES, purgeExitCode, verdictExitCode, type PurgeResult } from './purge/purge-result.js';
export { faultCauseOf, type PurgeFault, type PurgeFaultCause } from './purge/purge-fault.js';
export type { OtherAgentArtifacts, PlanChange, PurgeHolder, PurgeOptions, PurgePlan, PurgeVerdict } from './purge/purge-plan.js';
export { Orchestrators, type OrchestratorsOptions } from './purge/orchestrators.js';
export { invalidOrchestratorIdMessage, orchestratorInUseMessage, type OrchestratorRegisterResult, type OrchestratorRemoveOptions, type OrchestratorRemoveResult } from './purge/orchestrators-result.js';
export { artifactPath, formatArtifact, STILL_ON_DISK, type Artifact, type LeftArtifact, type PathArtifact, type RowsArtifact } from './purge/artifact.js';

// registry
export { idsClaimedByOthers, type IdsClaimedOptions } from './registry/ids-claimed-by-others.js';
export { addOrchestrator, listOrchestrators, removeOrchestrator } from './registry/orchestrators.js';
export { pinRow, type PinRowOptions } from './registry/pin-row.js';
export { pinUnclaimed } from './registry/pin-unclaimed.js';
export { RegistryCorruptError } from './registry/registry-corrupt-error.js';
export { type RegistryFileProblem, RegistryFileRefusedError, type RegistryFileRefusedData } from './registry/registry-file-refused-error.js';
export { RegistryIdClaimedError } from './registry/registry-id-claimed-error.js';
export { RegistryInvalidUpdateError } from './registry/registry-invalid-update-error.js';
export { type RegistryIssue, type RegistryIssueData, type RegistryProblem } from './registry/registry-issue.js';
export { RegistryMirrorError } from './registry/registry-mirror-error.js';
export { registryPaths, type RegistryPaths } from './registry/registry-paths.js';
export { RegistryReentrantUpdateError } from './registry/registry-reentrant-update-error.js';
export { RegistryRowNotFoundError } from './registry/registry-row-not-found-error.js';
export { type InvalidRow, type RegistryInspection, type RegistryState } from './registry/registry-state.js';
export { recordedId, rowAgent } from './registry/row-agent.js';
export { rowByName, rowsByStatus } from './registry/row-lookup.js';
export { type RegistryUpdateOptions, SessionRegistry, type SessionRegistryOptions } from './registry/session-registry.js';
export { type Pane, PaneSchema, SESSION_STATUSES, type SessionRow, SessionRowSchema, type SessionStatus } from './registry/session-row.js';

// jobs
export { JobArgumentError } from './jobs/job-argument-error.js';
export { JobAuditError } from './jobs/job-audit-error.js';
export { type ConflictRefusedEvent, type JobAuditEvent, type StatusChangedEvent } from './jobs/job-audit-event.js';
export { JobEngine, type JobEngineOptions, type JobUpdateResult, type RegisterJobOptions, type TransitionOptions, type TransitionResult } from './jobs/job-engine.js';
export { isValidJobId, newJobId, requireJobId } from './jobs/job-id.js';
export { JobNotFoundError } from './jobs/job-not-found-error.js';
export { JobRecordCorruptError } from './jobs/job-record-corrupt-error.js';
export { listJobIds, readJobRecord } from './jobs/job-record-reader.js';
export { type JobRecord, jobRecordSchema, RESERVED_JOB_FIELDS } from './jobs/job-record.js';
export { isJobStatus, isTerminalStatus, JOB_STATUSES, type JobStatus, type TerminalJobStatus } from './jobs/job-status.js';
export { isTransitionRequest, TRANSITION_REQUESTS, type TransitionRequest } from './jobs/transition-table.js';
export { type TransitionGuards } from './jobs/decide-transition.js';
export { JobAuditLog } from './jobs/job-audit-log.js';

// loop
export { attribution } from './loop/attribution.js';
export { type AttributionMismatch, type AttributionObserved, type AttributionResult, checkAttribution } from './loop/check-attribution.js';
export { ATTRIBUTION_FIELDS, type AttributionField, type DispatchContext } from './loop/dispatch-context.js';
export { DispatchNotFoundError } from './loop/dispatch-not-found-error.js';
export { DispatchStoreError } from './loop/dispatch-store-error.js';
export { DispatchStore, type DispatchStoreOptions } from './loop/dispatch-store.js';
export { HerdrWatcher, type HerdrWatcherOptions, type WatchStep } from './loop/herdr-watcher.js';
export { LoopGuard, type LoopGuardAcquire, type LoopGuardHandle, type LoopGuardOptions, type PidMarker, type PidMarkerState } from './loop/loop-guard.js';
export { type PolicyEvidence } from './loop/policy-evidence.js';
export { POLICY_RULES, type PolicyRule } from './loop/policy-rules.js';
export { POLICY_DECISIONS, type PolicyDecision, type PolicyDecisionKind, type PolicyScenario } from './loop/policy-scenario.js';
export { ReconnectBackoff, type ReconnectBackoffOptions } from './loop/reconnect-backoff.js';
export { RunLoopArgumentError } from './loop/run-loop-argument-error.js';
export { type LoopDeps, type LoopJobRecord, type LoopJobs, type LoopOutcome, type LoopPinner, type LoopPinResult, type LoopSession, type LoopSessions, type LoopShadowSummary, type LoopTiming, type LoopTransitionRequest, type RunLoopOptions } from './loop/run-loop-types.js';
export { runLoop } from './loop/run-loop.js';
export { type LoggedShadowDecision, type ShadowEntry } from './loop/shadow-entry.js';
export { ShadowPolicy } from './loop/shadow-policy.js';
export { ShadowRunner, type ShadowRunnerOptions } from './loop/shadow-runner.js';
export { DEFAULT_WATCH_UNTIL, waitOnce, type WaitOnceOptions } from './loop/wait-once.js';
export { WatchArgumentError } from './loop/watch-argument-error.js';
export { type WatchObservation, type WatchOutcome } from './loop/watch-outcome.js';
export { paneMatchesGeneration } from './loop/pane-matches-generation.js';

// gate
export { IdOrderGate, type IdOrderGateOptions, type IdOrderGateResult, type IdOrderRequest } from './gate/id-order-gate.js';
export { type IdOrderVerdict } from './gate/id-order-judge.js';
export { type IdOrderMarker, IdOrderMarkerSchema } from './gate/id-order-marker.js';
export { idOrderPaths, type IdOrderPaths } from './gate/id-order-paths.js';
export { type IdOrderBlocker, type IdOrderRefusal } from './gate/id-order-refusal.js';
export { type IdOrderUnremoved } from './gate/id-order-unremoved.js';
export { DEFAULT_ID_ORDER_WAIT_S, type IdOrderWait } from './gate/id-order-wait.js';
export { type IdOrderTicket } from './gate/id-order-ticket.js';
export { type IdOrderPruned } from './gate/id-order-round.js';

// lifecycle
export { type AcquiredPane } from './lifecycle/acquire-pane.js';
export { type LiveIdCapture, type LiveSessionWhere } from './lifecycle/capture-live-id.js';
export { type CreateCleanup, type CreateOptions, type CreateResult, type CreateStep, type OnboardingReport } from './lifecycle/create-result.js';
export { createSession } from './lifecycle/create-session.js';
export { type LifecycleContext, type LifecycleTimeouts } from './lifecycle/lifecycle-context.js';
export { LifecycleStepError } from './lifecycle/lifecycle-step-error.js';
export { type SessionInstant } from './lifecycle/new-session-row.js';
export { onboardSession } from './lifecycle/onboard-session.js';
export { type PinOutcome } from './lifecycle/pin-captured-id.js';
export { SessionLifecycle, type SessionLifecycleOptions } from './lifecycle/session-lifecycle.js';
export { type ResolvedSessionSpec, type SessionSpec } from './lifecycle/session-spec.js';
export { type StopWhere } from './lifecycle/stop-agent.js';
export { type StopExit, type StopOptions, type StopResult } from './lifecycle/stop-result.js';
export { stopSession } from './lifecycle/stop-session.js';

// autopin
export { AutoPinArgumentError } from './autopin/autopin-argument-error.js';
export { autopinLoopDeps, type AutopinLoopDepsOptions } from './autopin/autopin-loop-deps.js';
export { type AutoPinMarker, type AutoPinMarkerRead } from './autopin/autopin-marker.js';
export { type AutoPinResult, type PinSource } from './autopin/autopin-result.js';
export { AutoPin, type AutoPinOptions } from './autopin/autopin.js';
export { reconcile, type ReconcileEntry, type ReconcileOptions, type ReconcileReport } from './autopin/reconcile.js';

// capture
export * from './capture/index.js';

// reset
export { type PrecheckResult } from './reset/precheck-reset.js';
export { type ResetEntry, type ResetEntryState } from './reset/reset-entry.js';
export { type ResetDone, type ResetDryRun, type ResetExitCode, type ResetFailed, type ResetIncomplete, type ResetInterrupted, type ResetNeedsConfirmation, type ResetOutcome, type ResetOutcomeBase, type ResetRefused } from './reset/reset-outcome.js';
export { ResetPlanner, type ResetPlannerOptions } from './reset/reset-planner.js';
export { type ResetRefusal } from './reset/reset-refusal.js';
export { ResetSpecError } from './reset/reset-spec-error.js';
export { type ResetSpec } from './reset/reset-spec-file.js';
export { type ResetStepOutcome } from './reset/reset-step.js';
export { type ResetRowState, type ResetRunNote, type ResetTableRow } from './reset/reset-table.js';
export { type ResetPlan, type ResetPlanError, type ResetSkippedRow, type ResetTarget } from './reset/reset-target.js';
export { type ResetRunOptions } from './reset/run-reset.js';
// inspect
export * from './inspect/index.js';
