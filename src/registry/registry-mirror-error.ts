import type { FaultDataMap } from '../error-data.js';
import { describeError, MamError } from '../errors.js';

/**
 * The YAML registry was written but its SQLite mirror could not be brought up to date; code `REGISTRY_MIRROR_FAILED`.
 * Never thrown by an update (the change is committed): handed to `onWarning` and kept as `lastWarning`. The mirror is
 * then stale (its `yaml_sha256` is not the YAML's) and the next update rebuilds it from the YAML.
 * @public
 */
export class RegistryMirrorError extends MamError {
  /** Always `REGISTRY_MIRROR_FAILED`. */
  declare readonly code: 'REGISTRY_MIRROR_FAILED';
  /** The mirror's path, and whether the YAML change it mirrors was written. */
  declare readonly data: Readonly<FaultDataMap['REGISTRY_MIRROR_FAILED']>;

  /**
   * Builds the error for the mirror path; `yamlWritten` says whether the YAML change was already written, `cause` is
   * the SQLite failure.
   */
  constructor(path: string, yamlWritten: boolean, cause: unknown) {
    const reason = describeError(cause);
    const done = yamlWritten ? 'the registry YAML was written; ' : '';
    super('REGISTRY_MIRROR_FAILED', `cannot update the registry mirror ${path} (${reason}); ${done}the next update rebuilds the mirror`, { path, yamlWritten }, { cause });
  }
}
