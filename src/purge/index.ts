export { PurgeService, type PurgeOptions } from './purge-service.js';
export { purgeExitCode, type PurgeResult } from './purge-result.js';
