// `@mam/core/fs`: Files: fd-anchored confined removal, atomic writes, OS-held locks.
// The whole part; its documented names are also exported by the package root.

// paths
export * from '../paths/index.js';

// atomic
export * from '../atomic/index.js';

// errors
export { toPortError } from '../errors.js';

// the fact cache (one per file-system port; its rule: remembered under the lstat stamp once settled)
export { factCacheOf, type FactCache, type FactEntry, setFactCaching } from '../cache/fact-cache.js';
