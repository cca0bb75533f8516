export { isInside } from './is-inside.js';
export { confinedCheck, type ConfinedCheck } from './confined-check.js';
export { removeConfined, type RemovalLeft, type RemovalReport } from './remove-confined.js';
export { REMOVAL_REASONS } from './removal-reasons.js';
export { removeDirKeepingLast } from './remove-dir-keeping-last.js';
