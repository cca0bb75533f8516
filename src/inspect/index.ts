export { inspectStores, type InspectStoresOptions } from './inspect-stores.js';
export { formatStoreReport } from './format-store-report.js';
export { resumeStates, type ResumeState, type ResumeStatesOptions } from './resume-states.js';
