export { writeFileAtomic, type AtomicWriteOptions } from './atomic-write.js';
export { cleanStaleTemps, type CleanStaleTempsOptions } from './clean-stale-temps.js';
export { acquireLock, tryLock, withLock, type AcquireLockOptions, type LockHandle } from './lock.js';
export { LockTimeoutError, type LockTimeoutData } from './lock-timeout-error.js';
