import { MamError } from '../errors.js';

/**
 * A job record on disk is not valid JSON or lacks a required field; code `JOB_RECORD_CORRUPT`.
 * @public
 */
export class JobRecordCorruptError extends MamError {
  /** Always `JOB_RECORD_CORRUPT`. */
  declare readonly code: 'JOB_RECORD_CORRUPT';

  /** Builds the error for the record path and what is wrong with it (`problem`). */
  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super('JOB_RECORD_CORRUPT', `the job record ${path} is corrupt (${problem}): check it, then repair or remove it by hand`, { path, problem }, options);
  }
}
