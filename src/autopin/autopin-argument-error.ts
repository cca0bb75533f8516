import { MamError } from '../errors.js';

/**
 * AutoPin was given something it can never act on (an invalid job id, dispatch token or attempt, no home directory);
 * code `AUTOPIN_INVALID_ARGUMENT`.
 * @public
 */
export class AutoPinArgumentError extends MamError {
  /** Always `AUTOPIN_INVALID_ARGUMENT`. */
  declare readonly code: 'AUTOPIN_INVALID_ARGUMENT';

  /** Builds the error with a human `message` and the offending argument in `data`. */
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('AUTOPIN_INVALID_ARGUMENT', message, data);
  }
}
