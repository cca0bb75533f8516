import type { FaultDataMap } from '../error-data.js';
import { MamError } from '../errors.js';

/**
 * {@link pinRow} was asked to pin an id another row (or an orchestrator) of the registry already records; code
 * `REGISTRY_ID_CLAIMED`. `data` names the row, its agent, the id and who records it (a row name, or `orchestrator`).
 * @public
 */
export class RegistryIdClaimedError extends MamError {
  /** Always `REGISTRY_ID_CLAIMED`. */
  declare readonly code: 'REGISTRY_ID_CLAIMED';
  /** The row asked to pin, its agent, the canonical id, and the row name (or `orchestrator`) that records it. */
  declare readonly data: Readonly<FaultDataMap['REGISTRY_ID_CLAIMED']>;

  /** Builds the error for `row` (of `agent`) asked to pin `id`, which `claimedBy` already records. */
  constructor(row: string, agent: string, id: string, claimedBy: string) {
    const by = claimedBy === 'orchestrator' ? 'an orchestrator' : `row ${JSON.stringify(claimedBy)}`;
    super('REGISTRY_ID_CLAIMED', `cannot pin ${agent} id ${id} onto row ${JSON.stringify(row)}: ${by} already records it (pass { allowShared: true } to pin it anyway)`, { row, agent, id, claimedBy });
  }
}
