// What SessionRegistry's calls run — reading, parsing and validating the YAML, committing a draft, the lock, the atomic
// write, the SQLite mirror — in one module SessionRegistry loads on its first call, so that importing
// @mam/core, or constructing a registry, does not load it.
export { acquireLock } from '../atomic/lock.js';
export { writeFileAtomic } from '../atomic/atomic-write.js';
export { cleanStaleTemps } from '../atomic/clean-stale-temps.js';
export { loadRegistryText, missingRegistry } from './loaded-registry.js';
export { decodeRegistry, parseRegistryText } from './parse-registry-text.js';
export { clonePlain } from './plain-data.js';
export { commitDraft } from './registry-commit.js';
export { RegistryMirror } from './registry-mirror.js';
export { checkOwnNames, readRegistryYaml, refuseDatabasesAt, registryDirState } from './registry-files.js';

