// `@mam/core/adapters`: Agent adapters: the built-in definitions and the classes behind getAdapter, the per-agent location types, the adapter set of a port set, and the id helpers.
// The whole part; its documented names are also exported by the package root.

// adapters
export { adaptersOf, type AdapterSet } from '../agents/adapters-of.js';
export { AgyAdapter } from '../agents/agy/agy-adapter.js';
export { type ClaudeArtifactScan } from '../agents/claude/artifact-scan.js';
export { ClaudeAdapter } from '../agents/claude/claude-adapter.js';
export { type ClaudeLocations } from '../agents/claude/claude-locations.js';
export { type ClaudeSessionFile } from '../agents/claude/session-files.js';
export { CodexAdapter } from '../agents/codex/codex-adapter.js';
export { type ArtifactPath, type PurgeReport } from '../agents/common/artifacts.js';

export { getAdapter } from '../agents/get-adapter.js';
export { GrokAdapter } from '../agents/grok/grok-adapter.js';
export { HermesAdapter } from '../agents/hermes/hermes-adapter.js';
export { OpencodeAdapter } from '../agents/opencode/opencode-adapter.js';
export { type OpencodeLocation } from '../agents/opencode/opencode-locator.js';
export type * from '../agents/types.js';

// agent definitions
export { BUILTIN_AGENTS, type BuiltinAgent } from '../agents/builtin.js';
export { agy } from '../agents/agy/definition.js';
export { claude } from '../agents/claude/definition.js';
export { codex } from '../agents/codex/definition.js';
export { gemini } from '../agents/gemini/definition.js';
export { grok } from '../agents/grok/definition.js';
export { hermes } from '../agents/hermes/definition.js';
export { opencode } from '../agents/opencode/definition.js';
export { type AgentDefinition, type AgentIds, type AgentLaunch, type AgentReads, defineAgent } from '../agents/contract/agent-definition.js';
export { type AgentStore, type CaptureSelf, type StorePurgeOutcome, type StoreVerifyQuery } from '../agents/contract/agent-store.js';
export { createAdapter } from '../agents/contract/create-adapter.js';
export { pathPurge, type PathPurgeParts } from '../agents/contract/path-purge.js';

// ids
export * from '../ids/index.js';

// capture
export * from '../capture/index.js';

// process
export { agentCliName } from '../process/agent-cli-name.js';
export { helperChain, type HelperChain } from '../process/helper-chain.js';
export { processesNaming } from '../process/processes-naming.js';
export { isLiveProcess } from '../ports/process-live.js';
