import { MamError } from '../errors.js';
import type { LockTimeoutData } from '../error-data.js';

export type { LockTimeoutData } from '../error-data.js';

/**
 * The cross-process lock stayed held by someone else for the whole wait; code `LOCK_TIMEOUT`.
 * @public
 */
export class LockTimeoutError extends MamError {
  /** Always `LOCK_TIMEOUT`. */
  declare readonly code: 'LOCK_TIMEOUT';
  /** The lock path, how long was waited, and the holder when known. */
  declare readonly data: Readonly<LockTimeoutData>;

  /** Builds the fault from the lock path, the wait in ms and the holder when known. */
  constructor(data: LockTimeoutData) {
    const by = data.owner === undefined ? 'another holder' : data.owner;
    super('LOCK_TIMEOUT', `timed out after ${data.waitedMs} ms waiting for the lock ${data.lockPath} (held by ${by})`, data);
  }
}
