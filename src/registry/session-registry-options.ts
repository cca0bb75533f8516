import type { MamError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { Ports } from '../ports/index.js';
import type { RegistryAgentsOption } from './registry-agents.js';

/**
 * Options of {@link SessionRegistry.update}.
 * @public
 */
export interface RegistryUpdateOptions {
  /** Stops the update before its write begins, rejecting with `signal.reason` (nothing written). */
  signal?: AbortSignal;
}

/**
 * Options of {@link SessionRegistry}.
 * @public
 */
export interface SessionRegistryOptions extends RegistryAgentsOption<string> {
  /** Ports to use instead of the real ones; the registry uses only `fs` and `clock` (defaults: Node's filesystem and clock). */
  ports?: Partial<Ports>;
  /** Give up waiting for the update lock after this long, with a LockTimeoutError (default 30 000 ms). */
  lockTimeoutMs?: number;
  /**
   * Called when an update committed the YAML but something after it failed (the SQLite mirror, e.g. on a full disk, as a
   * `RegistryMirrorError`; the directory fsync): the update still resolved and must NOT be retried. The mirror is
   * then stale (its `yaml_sha256` is not the YAML's) and the next update, of any instance, rebuilds it.
   */
  onWarning?: (warning: MamError) => void;
  /** Create the workspace directory on the first update when it does not exist (default: an update of a missing workspace throws an `InvalidArgumentError`). */
  createWorkspace?: boolean;
}

/** Throws an InvalidArgumentError naming the first malformed option; plain checks, no zod, so constructing a registry stays cheap. */
export function checkRegistryOptions(opts: unknown): void {
  if (typeof opts !== 'object' || opts === null) throw new InvalidArgumentError('opts', 'must be an object');
  const o = opts as Record<string, unknown>;
  if (o['ports'] !== undefined && (typeof o['ports'] !== 'object' || o['ports'] === null)) throw new InvalidArgumentError('opts.ports', 'must be an object of ports');
  if (o['lockTimeoutMs'] !== undefined && (typeof o['lockTimeoutMs'] !== 'number' || !(o['lockTimeoutMs'] >= 0))) throw new InvalidArgumentError('opts.lockTimeoutMs', 'must be a number of milliseconds, not negative');
  if (o['onWarning'] !== undefined && typeof o['onWarning'] !== 'function') throw new InvalidArgumentError('opts.onWarning', 'must be a function');
  if (o['createWorkspace'] !== undefined && typeof o['createWorkspace'] !== 'boolean') throw new InvalidArgumentError('opts.createWorkspace', 'must be a boolean');
}
