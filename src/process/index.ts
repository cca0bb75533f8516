export * from './agent-cli-name.js';
export * from './helper-chain.js';
export * from './processes-naming.js';
export * from './process-state.js';
