export { MamError, PortError, UnknownAgentError, isPortError, type MamErrorCode, type PortErrorCode } from '../errors.js';
export type { Artifact, LeftArtifact } from '../purge/artifact.js';
export type * from '../ports/index.js';
export * from './fs/index.js';
export * from './process/index.js';
export * from './herdr/index.js';
export * from './agents/index.js';
export * from './sandbox/index.js';
export * from './model-server/index.js';
