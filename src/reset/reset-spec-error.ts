import { MamError } from '../errors.js';

/**
 * A saved `.mam/reset-spec.json` that cannot be used (corrupt, another version or workspace, an unknown agent); the file
 * is left exactly as it was and the message says to check it, then remove it by hand.
 * @public
 */
export class ResetSpecError extends MamError {
  /** Always `RESET_SPEC_INVALID`. */
  declare readonly code: 'RESET_SPEC_INVALID';

  /** Builds the error (code `RESET_SPEC_INVALID`) for the spec file and what is wrong with it. */
  constructor(path: string, problem: string, options?: { cause?: unknown }) {
    super('RESET_SPEC_INVALID', `${path}: ${problem}; check it, then remove it by hand`, { path, problem }, options);
  }
}
