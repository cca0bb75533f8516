import { MamError } from '../errors.js';

/**
 * A watcher was asked for a wait herdr cannot run as meant (a timeout that is not a positive number of ms, no `--until` status); code `WATCH_INVALID_ARGUMENT`.
 * @public
 */
export class WatchArgumentError extends MamError {
  /** Always `WATCH_INVALID_ARGUMENT`. */
  declare readonly code: 'WATCH_INVALID_ARGUMENT';

  /** Builds the error with a human `message` and the offending value in `data`. */
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('WATCH_INVALID_ARGUMENT', message, data);
  }
}
