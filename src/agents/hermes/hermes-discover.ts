import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import type { StateClock } from '../../sqlite/state-clock.js';
import type { HermesStore } from './hermes-paths.js';
import type { HermesSession } from './hermes-sessions.js';
import { workspaceMatcher } from './hermes-workspace-match.js';
import { readWorkspaceTips } from './hermes-workspace-tips.js';

/**
 * The tips of the workspace's conversations in the stores, newest first (ties by id), as canonical ids, each once; with
 * `epoch` only those started at or after it. Every store is read at once while the workspace resolves; SQLite scans for
 * the workspace's rows ({@link readWorkspaceTips}). As Hermes' own listing, which matches the `cwd` column, an ACP session
 * (its cwd only inside `model_config`) is never offered; it stays verifiable and purgeable by id. Never throws: a store
 * that cannot be read adds none.
 * @public
 */
export async function hermesDiscover(
  fs: FileSystemPort,
  stores: readonly HermesStore[] | PromiseLike<readonly HermesStore[]>,
  workspace: string,
  opts: { epoch?: number | undefined; now?: StateClock | undefined; canonical: (id: string) => string | null; dirLook?: ((dbPath: string) => PromiseLike<FileStat | null> | undefined) | undefined },
): Promise<string[]> {
  try {
    const matches = workspaceMatcher(fs, workspace);
    const found = (await Promise.all((await stores).map((store) => readWorkspaceTips(fs, store.db, matches, opts.now, opts.dirLook?.(store.db), { acp: false })))).flat();
    const epoch = opts.epoch;
    const fresh = epoch === undefined ? found : found.filter((s) => s.startedAt !== null && s.startedAt >= epoch);
    const order = (s: HermesSession): number => s.startedAt ?? Number.NEGATIVE_INFINITY;
    const ids = fresh.sort((a, b) => order(b) - order(a) || a.id.localeCompare(b.id)).map((s) => opts.canonical(s.id));
    return [...new Set(ids.filter((i): i is string => i !== null))];
  } catch {
    return [];
  }
}
