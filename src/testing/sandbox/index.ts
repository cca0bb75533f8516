export { buildSandbox } from './build-sandbox.js';
export type { Sandbox, SandboxOptions, SandboxSession, SandboxSessionSpec } from './sandbox-types.js';
export { SandboxError } from './sandbox-error.js';
export type { SeedOptions } from './seed-conversation.js';
export type { SeedSqliteState } from './seed-sqlite.js';
export { sandboxEnv } from './sandbox-env.js';
export { stopFakeAgents, type FakeAgentsStopResult, type StopFakeAgentsOptions } from './stop-fake-agents.js';
// The types the sandbox's public signature refers to (types only: the values are the root entry's), so the testing entry stands on its own (api-extractor: no forgotten exports).
export type * from '../../registry/index.js';
export type * from '../../agents/types.js';
export type * from '../../ids/agent-names.js';
