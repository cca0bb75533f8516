// `@mam/core/adapters`: Agent adapters: the classes behind getAdapter, their base class, the per-agent location types, the adapter set of a port set, and the id helpers.
// The whole part; its documented names are also exported by the package root.

// adapters
export { adaptersOf, type AdapterSet } from '../adapters/adapters-of.js';
export { AgyAdapter } from '../adapters/agy/agy-adapter.js';
export { type ClaudeArtifactScan } from '../adapters/claude/artifact-scan.js';
export { ClaudeAdapter } from '../adapters/claude/claude-adapter.js';
export { type ClaudeLocations } from '../adapters/claude/claude-locations.js';
export { type ClaudeSessionFile } from '../adapters/claude/session-files.js';
export { CodexAdapter } from '../adapters/codex/codex-adapter.js';
export { type ArtifactPath, type PurgeReport } from '../adapters/common/artifacts.js';
export { BaseAdapter } from '../adapters/common/base-adapter.js';
export { SESSION_ENV_VARS } from '../adapters/common/session-env.js';
export { getAdapter } from '../adapters/get-adapter.js';
export { GrokAdapter } from '../adapters/grok/grok-adapter.js';
export { HermesAdapter } from '../adapters/hermes/hermes-adapter.js';
export { OpencodeAdapter } from '../adapters/opencode/opencode-adapter.js';
export { type OpencodeLocation } from '../adapters/opencode/opencode-locator.js';
export type * from '../adapters/types.js';

// ids
export * from '../ids/index.js';

// capture
export * from '../capture/index.js';

// process
export { agentCliName } from '../process/agent-cli-name.js';
export { helperChain, type HelperChain } from '../process/helper-chain.js';
export { processesNaming } from '../process/processes-naming.js';
export { isLiveProcess } from '../ports/process-live.js';
