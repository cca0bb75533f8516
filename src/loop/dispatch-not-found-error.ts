import { MamError } from '../errors.js';

/**
 * The dispatch store has no context for this job (it was never dispatched through it); code `DISPATCH_NOT_FOUND`.
 * @public
 */
export class DispatchNotFoundError extends MamError {
  /** Always `DISPATCH_NOT_FOUND`. */
  declare readonly code: 'DISPATCH_NOT_FOUND';

  /** Builds the error for the job id and the dispatch context path that does not exist. */
  constructor(jobId: string, path: string) {
    super('DISPATCH_NOT_FOUND', `no dispatch recorded for job ${jobId} (${path})`, { jobId, path });
  }
}
