import type { FaultDataMap } from './error-data.js';
import { MamError } from './errors.js';

/**
 * A public entry point was called with an argument it cannot take (undefined or of the wrong type from plain JS, an
 * empty string, a relative path, a home that does not exist or is a file); `data.param` names it, `data.problem` says
 * what was wrong. Nothing was done.
 * @public
 */
export class InvalidArgumentError extends MamError {
  /** Always `INVALID_ARGUMENT`. */
  declare readonly code: 'INVALID_ARGUMENT';
  /** `{ param, problem }`: the parameter (`opts.home`, `id` …) and what was wrong with it. */
  declare readonly data: Readonly<FaultDataMap['INVALID_ARGUMENT']>;

  /** Builds the fault for parameter `param` with `problem`; code `INVALID_ARGUMENT`. */
  constructor(param: string, problem: string) {
    super('INVALID_ARGUMENT', `invalid argument ${param}: ${problem}`, { param, problem });
  }
}
