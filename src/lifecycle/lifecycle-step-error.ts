import type { FaultDataMap } from '../error-data.js';
import { MamError } from '../errors.js';

/**
 * A step of a session create or stop that could not be done; `data` names the step, the session and, when herdr
 * answered, herdr's own error code.
 * @public
 */
export class LifecycleStepError extends MamError {
  /** Always `LIFECYCLE_STEP_FAILED`. */
  declare readonly code: 'LIFECYCLE_STEP_FAILED';
  /** The step and the session, plus herdr's code when it gave one. */
  declare readonly data: Readonly<FaultDataMap['LIFECYCLE_STEP_FAILED']>;

  /** Builds the error for a step of a session; the message reads `<step> of "<session>" failed: <message>`. */
  constructor(step: string, session: string, message: string, opts: { herdrCode?: string; cause?: unknown } = {}) {
    super('LIFECYCLE_STEP_FAILED', `${step} of ${JSON.stringify(session)} failed: ${message}`, { step, session, ...(opts.herdrCode === undefined ? {} : { herdrCode: opts.herdrCode }) }, opts.cause === undefined ? undefined : { cause: opts.cause });
  }
}
