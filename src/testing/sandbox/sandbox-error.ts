import { MamError } from '../../errors.js';

/**
 * Why a sandbox could not be built: `SANDBOX_INVALID_OPTIONS` (nothing was touched), `SANDBOX_DIR_NOT_EMPTY` (nothing was
 * written over), `SANDBOX_SESSION_FAILED` (a session did not start or report its id; every agent already started was stopped).
 * @public
 */
export class SandboxError extends MamError {
  /** `SANDBOX_INVALID_OPTIONS`, `SANDBOX_DIR_NOT_EMPTY` or `SANDBOX_SESSION_FAILED`. */
  declare readonly code: 'SANDBOX_INVALID_OPTIONS' | 'SANDBOX_DIR_NOT_EMPTY' | 'SANDBOX_SESSION_FAILED';

  /** Builds the error with one of the three codes, a human `message`, structured `data` and an optional `cause`. */
  constructor(code: SandboxError['code'], message: string, data: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(code, message, data, options);
  }
}
