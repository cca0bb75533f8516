// Every public name of the package, whichever entry point exports it: the root (`@mam/core`) and its named subpaths.
export * from '../../src/index.js';
export * from '../../src/entries/adapters.js';
export * from '../../src/entries/fs.js';
export * from '../../src/entries/herdr.js';
export * from '../../src/entries/jobs.js';
export * from '../../src/entries/lifecycle.js';
export * from '../../src/entries/loop.js';
export * from '../../src/entries/node.js';
export * from '../../src/entries/registry.js';
export * from '../../src/entries/reset.js';
export * from '../../src/entries/sqlite.js';
