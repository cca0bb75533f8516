export { PurgeService } from './purge-service.js';
export { PURGE_EXIT_CODES, purgeExitCode, verdictExitCode, type PurgeResult } from './purge-result.js';
export { faultCauseOf, type PurgeFault, type PurgeFaultCause } from './purge-fault.js';
export type { PurgeOptions, PurgePlan, PurgeVerdict, PurgeHolder, PlanChange, OtherAgentArtifacts } from './purge-plan.js';
export { PurgePlanner, purgeContext } from './purge-planner.js';
export { planDrift } from './plan-drift.js';
export { Orchestrators, type OrchestratorsOptions } from './orchestrators.js';
export { invalidOrchestratorIdMessage, orchestratorInUseMessage, type OrchestratorRegisterResult, type OrchestratorRemoveOptions, type OrchestratorRemoveResult } from './orchestrators-result.js';
export { formatArtifact, artifactPath, leftArtifact, sameArtifact, asLeft, hasReason, STILL_ON_DISK, type Artifact, type LeftArtifact, type PathArtifact, type RowsArtifact } from './artifact.js';
