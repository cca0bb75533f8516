export * from './fake-process.js';
export * from './fake-process-table.js';
