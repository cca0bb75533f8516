export * from './errors.js';
export type * from './ports/index.js';
export * from './ids/index.js';
export * from './paths/index.js';
export * from './atomic/index.js';
export * from './sqlite/index.js';
export * from './process/index.js';
export * from './herdr/index.js';
export * from './node/index.js';
