import { MamError } from '../errors.js';

/**
 * A transition was committed but its audit line could not be appended; code `JOB_AUDIT_FAILED` (the record keeps the commit).
 * @public
 */
export class JobAuditError extends MamError {
  /** Always `JOB_AUDIT_FAILED`. */
  declare readonly code: 'JOB_AUDIT_FAILED';

  /** Builds the error for the job and the audit log path that could not be appended to; `cause` is the port failure. */
  constructor(jobId: string, path: string, options?: { cause?: unknown }) {
    super('JOB_AUDIT_FAILED', `job ${jobId}: the transition is committed but its audit line could not be written to ${path}`, { jobId, path, committed: true }, options);
  }
}
