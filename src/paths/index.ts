export { isInside } from './is-inside.js';
export { confinedCheck, type ConfinedCheck } from './confined-check.js';
export { removeConfined, type RemovalReport } from './remove-confined.js';
export { removeDirKeepingLast } from './remove-dir-keeping-last.js';
