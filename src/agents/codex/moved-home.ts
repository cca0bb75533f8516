import type { FileSystemPort } from '../../ports/fs.js';
import { isInside } from '../../paths/is-inside.js';
import type { CodexHome } from './codex-home.js';
import { scanRollouts } from './rollout-scan.js';

/**
 * True when a recorded rollout path cannot be this home's file as written: it lies outside the home's rollout roots, or
 * nothing is there (a moved or copied `CODEX_HOME` keeps the old absolute paths in its rows).
 * @public
 */
export async function staleRecordedPath(fs: FileSystemPort, home: CodexHome, path: string): Promise<boolean> {
  const inside = [home.sessions, home.archived].some((r) => isInside(r, path) && path !== r);
  if (!inside) return true;
  return fs.lstat(path).then(
    () => false,
    () => true,
  );
}

/**
 * The rollouts under the home's rollout roots by the id their names carry (one listing, no file opened). Never rejects.
 * @public
 */
export async function rolloutsById(fs: FileSystemPort, home: CodexHome): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const scan = await scanRollouts(fs, home).catch(() => ({ files: [] }));
  for (const f of scan.files) out.set(f.id, [...(out.get(f.id) ?? []), f.path]);
  return out;
}
