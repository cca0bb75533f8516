import { join } from 'node:path';
import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { checkCleanStaleTemps } from '../validation/low-level-args.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Options of {@link cleanStaleTemps}.
 * @public
 */
export interface CleanStaleTempsOptions {
  /** Only remove temps last modified before this epoch-ms instant (e.g. `clock.now() - 60_000`), sparing a write in flight. */
  modifiedBeforeMs?: number;
}

/**
 * Removes the temp files a killed {@link writeFileAtomic} left for `base` in `dir` (regular files named `.<base>.<uuid>.tmp` only) and returns the paths removed; run it under the lock that guards the writes, or with `modifiedBeforeMs`.
 * @public
 */
export async function cleanStaleTemps(fs: FileSystemPort, dir: string, base: string, opts: CleanStaleTempsOptions = {}): Promise<string[]> {
  checkCleanStaleTemps([fs, dir, base, opts]);
  const pattern = new RegExp(`^\\.${escapeRegExp(base)}\\.${UUID}\\.tmp$`);
  const removed: string[] = [];
  for (const entry of await fs.readdir(dir)) {
    if (entry.kind !== 'file' || !pattern.test(entry.name)) continue;
    const path = join(dir, entry.name);
    try {
      if (opts.modifiedBeforeMs !== undefined && (await fs.lstat(path)).mtimeMs >= opts.modifiedBeforeMs) continue;
      await fs.unlink(path);
      removed.push(path);
    } catch (err) {
      // Another cleaner (or the writer's own cleanup) got there first.
      if (!isPortError(err, 'NotFound')) throw err;
    }
  }
  return removed;
}
