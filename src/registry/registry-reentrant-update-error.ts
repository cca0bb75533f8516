import type { FaultDataMap } from '../error-data.js';
import { MamError } from '../errors.js';

/**
 * A mutator called `update` on the registry whose lock it is running under (it would wait for itself); code
 * `REGISTRY_REENTRANT_UPDATE`. Do the second change in the same mutator instead.
 * @public
 */
export class RegistryReentrantUpdateError extends MamError {
  /** Always `REGISTRY_REENTRANT_UPDATE`. */
  declare readonly code: 'REGISTRY_REENTRANT_UPDATE';
  /** The registry file. */
  declare readonly data: Readonly<FaultDataMap['REGISTRY_REENTRANT_UPDATE']>;

  /** Builds the error for the registry file whose update was re-entered. */
  constructor(path: string) {
    super('REGISTRY_REENTRANT_UPDATE', `update of the session registry ${path} called from inside an update of it: make both changes in one mutator`, { path });
  }
}
