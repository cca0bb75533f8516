import { MamError } from '../errors.js';

/**
 * A caller gave the job engine something it can never act on (an invalid job id, a reserved field, an unknown status); code `JOB_INVALID_ARGUMENT`.
 * @public
 */
export class JobArgumentError extends MamError {
  /** Always `JOB_INVALID_ARGUMENT`. */
  declare readonly code: 'JOB_INVALID_ARGUMENT';

  /** Builds the error with a human `message` and the offending argument in `data`. */
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('JOB_INVALID_ARGUMENT', message, data);
  }
}
