// What NodeProcessPort reads the process table and open files with (/proc, ps, lsof), in one module it loads on its
// first call that needs them, so that importing @mam/core, or making the ports, does not load them.
export { lsofOpenFiles } from './lsof-open-files.js';
export { directoryTargets, matchHolders, resolveHolderTargets } from './lsof-targets.js';
export { readProcClock } from './proc-clock.js';
export { procFdOpenFiles } from './proc-fd-scan.js';
export { readProcProcess } from './proc-read.js';
export { procSnapshot } from './proc-snapshot.js';
export { psLookup, psSnapshot } from './ps-table.js';
