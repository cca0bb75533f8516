import { nodeCrypto } from '../lazy-crypto.js';
import { basename, dirname, join } from 'node:path';
import { isPortError, toPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { checkWriteFileAtomic } from '../validation/low-level-args.js';

/**
 * Options of {@link writeFileAtomic}.
 * @public
 */
export interface AtomicWriteOptions {
  /** Mode of the file; by default an existing target's mode is kept (new files get the port's default). */
  mode?: number;
}

// `.<base>.<uuid>.tmp`: hidden, unique per write, and recognisable by cleanStaleTemps.
function tempName(base: string): string {
  return `.${base}.${nodeCrypto().randomUUID()}.tmp`;
}

async function existingMode(fs: FileSystemPort, path: string): Promise<number | undefined> {
  try {
    return (await fs.stat(path)).mode & 0o7777;
  } catch (err) {
    if (isPortError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/**
 * Replaces `path` so that a crash at any instant leaves either the old or the new content, never a torn file: a synced temp file in the same directory, renamed over the target, then the directory fsynced. On failure the temp is removed and a {@link PortError} rejects.
 * @example
 * ```ts
 * await writeFileAtomic(fs, '/w/.mam/agent-sessions.yaml', yamlText);
 * ```
 * @public
 */
export async function writeFileAtomic(fs: FileSystemPort, path: string, data: string | Uint8Array, opts?: AtomicWriteOptions): Promise<void> {
  checkWriteFileAtomic([fs, path, data, opts]);
  const dir = dirname(path);
  const tmp = join(dir, tempName(basename(path)));
  let renamed = false;
  try {
    const mode = opts?.mode ?? (await existingMode(fs, path));
    await fs.writeFile(tmp, data, { exclusive: true, noLink: true, sync: true, ...(mode === undefined ? {} : { mode }) });
    await fs.rename(tmp, path);
    renamed = true;
    await fs.fsyncDir(dir);
  } catch (err) {
    // AlreadyExists means the temp name was someone else's file: leave it alone.
    if (!renamed && !isPortError(err, 'AlreadyExists')) await fs.unlink(tmp).catch(() => undefined);
    throw toPortError(err, 'atomic.write', path);
  }
}
