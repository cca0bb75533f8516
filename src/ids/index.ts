export * from './agent-names.js';
export * from './agent-id.js';
