import { MamError } from '../errors.js';

/**
 * `runLoop` was given something it can never act on (an empty creator or task, a task with a NUL byte, a timing that is
 * not a positive number of ms); code `LOOP_INVALID_ARGUMENT`.
 * @public
 */
export class RunLoopArgumentError extends MamError {
  /** Always `LOOP_INVALID_ARGUMENT`. */
  declare readonly code: 'LOOP_INVALID_ARGUMENT';

  /** Builds the error with a human `message` and the offending argument in `data`. */
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('LOOP_INVALID_ARGUMENT', message, data);
  }
}
