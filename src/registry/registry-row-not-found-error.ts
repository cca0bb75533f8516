import type { FaultDataMap } from '../error-data.js';
import { MamError } from '../errors.js';

/**
 * A helper was asked to change a row the registry does not have; code `REGISTRY_ROW_NOT_FOUND`.
 * @public
 */
export class RegistryRowNotFoundError extends MamError {
  /** Always `REGISTRY_ROW_NOT_FOUND`. */
  declare readonly code: 'REGISTRY_ROW_NOT_FOUND';
  /** The row name asked for. */
  declare readonly data: Readonly<FaultDataMap['REGISTRY_ROW_NOT_FOUND']>;

  /** Builds the error for the row name asked for. */
  constructor(row: string) {
    super('REGISTRY_ROW_NOT_FOUND', `no session row named ${JSON.stringify(row)} in the registry`, { row });
  }
}
