// The public API of `@mam/core`: the documented front door (the README's "API by task" and the names its tour imports),
// every name listed explicitly. The parts' other public names are on named subpaths (`@mam/core/adapters`, `/registry`,
// `/sqlite`, `/fs`, `/herdr`, `/node`, `/jobs`, `/loop`, `/lifecycle`, `/reset`; src/entries/), each of which exports
// its whole part. The lists are pinned by test/unit/package/export-lists.test.ts (the root stays under 250 names, types
// included) — after a deliberate change regenerate the snapshots with
// `npx vitest run test/unit/package/export-lists.test.ts -u` and add a CHANGELOG line.

// errors
export { describeError, InvalidIdError, isMamError, isPortError, MamError, type MamErrorCode, type MamErrorDataMap, type MamErrorOf, PortError, type PortErrorCode, UnknownAgentError } from './errors.js';
export type { FaultDataMap, PortErrorData } from './error-data.js';
export { InvalidArgumentError } from './invalid-argument-error.js';
export type * from './ports/index.js';

// ids
export { AGENT_NAMES, type AgentName, isAgentName, ownKey } from './ids/agent-names.js';
export { idSpellings, normalizeAgentId } from './ids/agent-id.js';

// paths, atomic
export { confinedCheck, type ConfinedCheck } from './paths/confined-check.js';
export { removeConfined, type RemovalLeft, type RemovalReport } from './paths/remove-confined.js';
export { writeFileAtomic } from './atomic/atomic-write.js';
export { acquireLock, withLock } from './atomic/lock.js';

// sqlite
// (their option and handle types are on `@mam/core/sqlite`)
export { dbRowsNaming } from './sqlite/db-rows-naming.js';
export { openReadonly, type ReadonlyDb, withReadonlyDb } from './sqlite/readonly-db.js';

// process
export { helperChain } from './process/helper-chain.js';
export { processesNaming } from './process/processes-naming.js';

// herdr, node
export { sanitizeHerdrAgentName } from './herdr/sanitize.js';
export { HerdrCli, type HerdrCliOptions } from './node/herdr-cli.js';
export { NodeFileSystem, type NodeFileSystemOptions } from './node/node-fs.js';
export { nodePorts, type NodePortsOptions } from './node/node-ports.js';

// adapters (the less-used types — `HomeDirDiscoveryContext`, `DiscoveryContextInput`, `PurgeReport` — are on `@mam/core/adapters`)
export type { ArtifactPath } from './agents/common/artifacts.js';
export { getAdapter } from './agents/get-adapter.js';
export type { AdapterPurgePlan, AdapterPurgeReport, AgentAdapter, CaptureResult, CaptureRow, DiscoveryContext, HomeDiscoveryContext, InUseHolder, PreflightResult, RemainsBelonging, StoreReport, StoreSurvey, VerifyQuery } from './agents/types.js';

// agent definitions (the open door: an agent from outside the package)
export { type AgentDefinition, type AgentIds, type AgentLaunch, type AgentReads, defineAgent } from './agents/contract/agent-definition.js';
export type { AgentStore, StorePurgeOutcome, StoreVerifyQuery } from './agents/contract/agent-store.js';
export { createAdapter } from './agents/contract/create-adapter.js';
export { pathPurge, type PathPurgeParts } from './agents/contract/path-purge.js';

// purge
export { PurgeService, type PurgeServiceOptions } from './purge/purge-service.js';
export { PURGE_EXIT_CODES, purgeExitCode, verdictExitCode, type PurgeResult } from './purge/purge-result.js';
export { faultCauseOf, type PurgeFault, type PurgeFaultCause } from './purge/purge-fault.js';
export type { OtherAgentArtifacts, PlanChange, PurgeHolder, PurgeOptions, PurgePlan, PurgeVerdict } from './purge/purge-plan.js';
export { Orchestrators, type OrchestratorsOptions } from './purge/orchestrators.js';
export type { OrchestratorRegisterResult, OrchestratorRemoveOptions, OrchestratorRemoveResult } from './purge/orchestrators-result.js';
export { artifactPath, formatArtifact, STILL_ON_DISK, type Artifact, type LeftArtifact, type PathArtifact, type RowsArtifact } from './purge/artifact.js';

// registry
export { pinRow, type PinRowOptions } from './registry/pin-row.js';
export { pinUnclaimed } from './registry/pin-unclaimed.js';
export { type RegistryFileProblem, RegistryFileRefusedError, type RegistryFileRefusedData } from './registry/registry-file-refused-error.js';
export { RegistryIdClaimedError } from './registry/registry-id-claimed-error.js';
export type { RegistryIssue, RegistryIssueData, RegistryProblem } from './registry/registry-issue.js';
export type { InvalidRow, RegistryInspection, RegistryState } from './registry/registry-state.js';
export { recordedId, rowAgent } from './registry/row-agent.js';
export { rowByName, rowsByStatus } from './registry/row-lookup.js';
export type { RegistryUpdateOptions, SessionRegistryOptions } from './registry/session-registry-options.js';
export { SessionRegistry } from './registry/session-registry.js';
export { type Pane, SESSION_STATUSES, type SessionRow, type SessionStatus } from './registry/session-row.js';

// jobs
export type { JobAuditEvent, ConflictRefusedEvent, StatusChangedEvent } from './jobs/job-audit-event.js';
export { JobEngine, type JobEngineOptions, type JobUpdateResult, type RegisterJobOptions, type TransitionOptions, type TransitionResult } from './jobs/job-engine.js';
export type { JobRecord } from './jobs/job-record.js';
export { JOB_STATUSES, type JobStatus, type TerminalJobStatus } from './jobs/job-status.js';
export type { TransitionRequest } from './jobs/transition-table.js';
export type { TransitionGuards } from './jobs/decide-transition.js';
export { JobAuditLog } from './jobs/job-audit-log.js';

// loop
export { LoopGuard, type LoopGuardAcquire, type LoopGuardHandle, type LoopGuardOptions, type PidMarker, type PidMarkerState } from './loop/loop-guard.js';
export type { PolicyEvidence } from './loop/policy-evidence.js';
export { POLICY_DECISIONS, type PolicyDecision, type PolicyDecisionKind, type PolicyScenario } from './loop/policy-scenario.js';
export type { LoopDeps, LoopJobRecord, LoopJobs, LoopOutcome, LoopPinner, LoopPinResult, LoopSession, LoopSessions, LoopShadowSummary, LoopTiming, LoopTransitionRequest, RunLoopOptions } from './loop/run-loop-types.js';
export { runLoop } from './loop/run-loop.js';
export type { LoggedShadowDecision, ShadowEntry } from './loop/shadow-entry.js';
export { ShadowPolicy } from './loop/shadow-policy.js';
export { ShadowRunner, type ShadowRunnerOptions } from './loop/shadow-runner.js';

// lifecycle
export type { CreateCleanup, CreateOptions, CreateResult, CreateStep, OnboardingReport } from './lifecycle/create-result.js';
export { SessionLifecycle, type SessionLifecycleOptions } from './lifecycle/session-lifecycle.js';
export { LifecycleStepError } from './lifecycle/lifecycle-step-error.js';
export type { IdOrderRefusal } from './gate/id-order-refusal.js';
export type { ResolvedSessionSpec, SessionSpec } from './lifecycle/session-spec.js';
export type { StopExit, StopOptions, StopResult } from './lifecycle/stop-result.js';

// autopin
export { autopinLoopDeps, type AutopinLoopDepsOptions } from './autopin/autopin-loop-deps.js';
export type { AutoPinResult, PinSource } from './autopin/autopin-result.js';
export { AutoPin, type AutoPinOptions } from './autopin/autopin.js';
export { reconcile, type ReconcileEntry, type ReconcileOptions, type ReconcileReport } from './autopin/reconcile.js';

// reset
export type { PrecheckResult } from './reset/precheck-reset.js';
export type { ResetEntry, ResetEntryState } from './reset/reset-entry.js';
export type { ResetDone, ResetDryRun, ResetExitCode, ResetFailed, ResetIncomplete, ResetInterrupted, ResetNeedsConfirmation, ResetOutcome, ResetOutcomeBase, ResetRefused } from './reset/reset-outcome.js';
export { ResetPlanner, type ResetPlannerOptions } from './reset/reset-planner.js';
export type { ResetSpec } from './reset/reset-spec-file.js';
export type { ResetRefusal } from './reset/reset-refusal.js';
export type { ResetStepOutcome } from './reset/reset-step.js';
export type { ResetRowState, ResetRunNote, ResetTableRow } from './reset/reset-table.js';
export type { ResetPlan, ResetPlanError, ResetSkippedRow, ResetTarget } from './reset/reset-target.js';
export type { ResetRunOptions } from './reset/run-reset.js';

// inspect
export * from './inspect/index.js';
