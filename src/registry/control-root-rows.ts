import type { FileSystemPort } from '../ports/fs.js';
import { realpathLenient } from './realpath-lenient.js';
import type { RegistryState } from './registry-state.js';
import type { SessionRow } from './session-row.js';

/**
 * The rows whose pane runs in the workspace itself (its control root): `realpath(pane.cwd) == realpath(workspace)`,
 * links resolved on both sides, in registry order. A row without a pane cwd, or in a sub-directory such as a worktree,
 * belongs to another root.
 * @example
 * ```ts
 * const mine = await controlRootRows(await registry.snapshot(), '/w', fs);
 * ```
 * @public
 */
export async function controlRootRows(state: RegistryState, workspace: string, fs: FileSystemPort): Promise<SessionRow[]> {
  const root = await realpathLenient(fs, workspace);
  const cache = new Map<string, Promise<string>>();
  const resolved = (cwd: string): Promise<string> => {
    let p = cache.get(cwd);
    if (p === undefined) cache.set(cwd, (p = realpathLenient(fs, cwd)));
    return p;
  };
  const rows = state.herdr_sessions;
  const keep = await Promise.all(rows.map(async (row) => {
    const cwd = row.pane?.cwd;
    return typeof cwd === 'string' && cwd !== '' && (await resolved(cwd)) === root;
  }));
  return rows.filter((_, i) => keep[i]);
}
