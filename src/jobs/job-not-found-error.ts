import { MamError } from '../errors.js';

/**
 * No record for this job id exists in the registry; code `JOB_NOT_FOUND`.
 * @public
 */
export class JobNotFoundError extends MamError {
  /** Always `JOB_NOT_FOUND`. */
  declare readonly code: 'JOB_NOT_FOUND';

  /** Builds the error for the job id and the record path that does not exist. */
  constructor(jobId: string, path: string, options?: { cause?: unknown }) {
    super('JOB_NOT_FOUND', `no job ${jobId}: ${path} does not exist`, { jobId, path }, options);
  }
}
