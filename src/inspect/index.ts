export { inspectStores, type InspectStoresOptions } from './inspect-stores.js';
export { formatStoreReport } from './format-store-report.js';
