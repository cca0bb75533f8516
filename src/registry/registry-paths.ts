import { join, resolve } from 'node:path';
import { checkRegistryPaths } from '../validation/low-level-args.js';

/**
 * Where a workspace's registry lives: the YAML, its SQLite mirror, and the lock file that serialises updates.
 * @public
 */
export interface RegistryPaths {
  /** The workspace (absolute). */
  workspace: string;
  /** `<workspace>/.mam`. */
  dir: string;
  /** `.mam/agent-sessions.yaml`, shared with the reference tool. */
  yaml: string;
  /** `.mam/agent-sessions.db`, the SQLite mirror. */
  db: string;
  /** `.mam/agent-sessions.lock`: an empty SQLite file whose lock is the update lock (plus a transient `-journal`). */
  lock: string;
}

/**
 * The registry paths of a workspace (made absolute).
 * @public
 */
export function registryPaths(workspace: string): RegistryPaths {
  checkRegistryPaths([workspace]);
  const ws = resolve(workspace);
  const dir = join(ws, '.mam');
  return { workspace: ws, dir, yaml: join(dir, 'agent-sessions.yaml'), db: join(dir, 'agent-sessions.db'), lock: join(dir, 'agent-sessions.lock') };
}
