import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { checkIdOrderPaths } from '../validation/low-level-args.js';

/**
 * Where the id-order gate of one cwd keeps its markers and its lock, under the workspace's `.mam/`.
 * @public
 */
export interface IdOrderPaths {
  /** `<workspace>/.mam/id-order`. */
  root: string;
  /** `<root>/<cwd key>`: the markers of this cwd. */
  dir: string;
  /** `<dir>/gate.lock`: held only while the markers are judged and one is written. */
  lock: string;
}

/**
 * The gate paths of a cwd (its realpath) in a workspace: the cwd key is the first 16 hex digits of the SHA-1 of the
 * realpath, so any cwd (spaces, links, length) maps to one short, safe directory name.
 * @public
 */
export function idOrderPaths(workspace: string, realCwd: string): IdOrderPaths {
  checkIdOrderPaths([workspace, realCwd]);
  const root = join(resolve(workspace), '.mam', 'id-order');
  const key = createHash('sha1').update(realCwd, 'utf8').digest('hex').slice(0, 16);
  const dir = join(root, key);
  return { root, dir, lock: join(dir, 'gate.lock') };
}
