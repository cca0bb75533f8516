import { join } from 'node:path';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import { factCacheOf } from '../../cache/fact-cache.js';
import type { GrokClock } from './grok-plain-cwds.js';
import { readRegularFile } from '../common/read-regular.js';

/** A `.cwd` holds one path; 64 KiB is far beyond any PATH_MAX. */
const MAX_CWD_BYTES = 64 * 1024;

// The fact cache's space of `.cwd` texts (per file-system port): path → the text read under a stamp of its lstat.
const SPACE = 'grok.bucket-cwd';

const stampOf = (s: FileStat): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.nlink}`;

/**
 * The cwd a hashed slug bucket (of a long path) stands for: its `.cwd` (a regular file, read as {@link readRegularFile}
 * does), trimmed. With `now`, the text is remembered for the port under the file's `lstat` (device, inode, size, mtime,
 * links) once it has settled, so a later call costs the `lstat` alone (grok writes the file once, `O_EXCL`). Never throws.
 * @public
 */
export async function grokBucketCwdFile(fs: FileSystemPort, bucket: string, now?: GrokClock): Promise<string | null> {
  const path = join(bucket, '.cwd');
  const cache = factCacheOf(fs);
  let st: FileStat | null = null;
  if (now !== undefined) {
    st = await lstatOrNull(fs, path).catch(() => null);
    if (st === null || st.kind !== 'file') {
      cache.forget(SPACE, path);
      return null;
    }
    const hit = cache.get<string>(SPACE, path, stampOf(st));
    if (hit !== undefined) return hit.value;
  }
  const read = await readRegularFile(fs, path, MAX_CWD_BYTES);
  if (read.kind !== 'text') return null;
  const cwd = read.text.trim();
  if (st !== null) cache.remember({ space: SPACE, key: path, looks: [st], now: now?.(), value: cwd, stamp: stampOf(st) });
  return cwd;
}
