import { MamError } from '../errors.js';

/**
 * A dispatch context given to, or read from, the dispatch store is unusable (a bad attempt or identifier, a corrupt file); code `DISPATCH_INVALID`.
 * @public
 */
export class DispatchStoreError extends MamError {
  /** Always `DISPATCH_INVALID`. */
  declare readonly code: 'DISPATCH_INVALID';

  /**
   * Builds the error with a human `message`, the offending value or path in `data`, and the parse failure as `cause`.
   */
  constructor(message: string, data: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('DISPATCH_INVALID', message, data, options);
  }
}
