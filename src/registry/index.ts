export { SessionRegistry } from './session-registry.js';
export type { SessionRegistryOptions } from './session-registry-options.js';
export type { RegistryState, RegistryInspection, InvalidRow } from './registry-state.js';
export {
  SessionRowSchema,
  PaneSchema,
  RegistryFileSchema,
  SESSION_STATUSES,
  type SessionRow,
  type Pane,
  type SessionStatus,
} from './session-row.js';
export { registryPaths, type RegistryPaths } from './registry-paths.js';
export type { RegistryIssue, RegistryProblem, RegistryIssueData } from './registry-issue.js';
export { RegistryCorruptError } from './registry-corrupt-error.js';
export { RegistryFileRefusedError, type RegistryFileProblem, type RegistryFileRefusedData } from './registry-file-refused-error.js';
export { RegistryIdClaimedError } from './registry-id-claimed-error.js';
export { RegistryInvalidUpdateError } from './registry-invalid-update-error.js';
export { RegistryMirrorError } from './registry-mirror-error.js';
export { RegistryRowNotFoundError } from './registry-row-not-found-error.js';
export { RegistryReentrantUpdateError } from './registry-reentrant-update-error.js';
export { rowAgent, recordedId } from './row-agent.js';
export { rowByName, rowsByStatus } from './row-lookup.js';
export { controlRootRows } from './control-root-rows.js';
export { realpathLenient } from './realpath-lenient.js';
export { idsClaimedByOthers, type IdsClaimedOptions } from './ids-claimed-by-others.js';
export { pinRow, type PinRowOptions } from './pin-row.js';
export { addOrchestrator, removeOrchestrator, listOrchestrators } from './orchestrators.js';
export { pinUnclaimed } from './pin-unclaimed.js';
export type { RegistryAgentsOption } from './registry-agents.js';
