// `@mam/core/registry`: The session registry and its helpers: orchestrator lists, the paths, the row schemas, the claimed-ids check.
// The whole part; its documented names are also exported by the package root.

// registry
export { idsClaimedByOthers, type IdsClaimedOptions } from '../registry/ids-claimed-by-others.js';
export { addOrchestrator, listOrchestrators, removeOrchestrator } from '../registry/orchestrators.js';
export { pinRow, type PinRowOptions } from '../registry/pin-row.js';
export { pinUnclaimed } from '../registry/pin-unclaimed.js';
export type { RegistryAgentsOption } from '../registry/registry-agents.js';
export { RegistryCorruptError } from '../registry/registry-corrupt-error.js';
export { type RegistryFileProblem, RegistryFileRefusedError, type RegistryFileRefusedData } from '../registry/registry-file-refused-error.js';
export { RegistryIdClaimedError } from '../registry/registry-id-claimed-error.js';
export { RegistryInvalidUpdateError } from '../registry/registry-invalid-update-error.js';
export { type RegistryIssue, type RegistryIssueData, type RegistryProblem } from '../registry/registry-issue.js';
export { RegistryMirrorError } from '../registry/registry-mirror-error.js';
export { registryPaths, type RegistryPaths } from '../registry/registry-paths.js';
export { RegistryReentrantUpdateError } from '../registry/registry-reentrant-update-error.js';
export { RegistryRowNotFoundError } from '../registry/registry-row-not-found-error.js';
export { type InvalidRow, type RegistryInspection, type RegistryState } from '../registry/registry-state.js';
export { recordedId, rowAgent } from '../registry/row-agent.js';
export { rowByName, rowsByStatus } from '../registry/row-lookup.js';
export type { RegistryUpdateOptions, SessionRegistryOptions } from '../registry/session-registry-options.js';
export { SessionRegistry } from '../registry/session-registry.js';
export { type Pane, PaneSchema, SESSION_STATUSES, type OwnIdFields, type SessionRow, SessionRowSchema, type SessionStatus } from '../registry/session-row.js';

// orchestrators
export { invalidOrchestratorIdMessage, orchestratorInUseMessage } from '../purge/orchestrators-result.js';
