import { join } from 'node:path';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import { settled } from '../../sqlite/remembered-probe.js';
import type { GrokClock } from './grok-plain-cwds.js';
import { readGrokFile } from './grok-read.js';

/** A `.cwd` holds one path; 64 KiB is far beyond any PATH_MAX. */
const MAX_CWD_BYTES = 64 * 1024;

// Per file-system port: `.cwd` path → the text read under a stamp of its lstat.
const memory = new WeakMap<FileSystemPort, Map<string, { stamp: string; cwd: string }>>();

const stampOf = (s: FileStat): string => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.nlink}`;

/**
 * The cwd a hashed slug bucket (of a long path) stands for: its `.cwd` (a regular file, read as {@link readGrokFile}
 * does), trimmed. With `now`, the text is remembered for the port under the file's `lstat` (device, inode, size, mtime,
 * links) once it has settled, so a later call costs the `lstat` alone (grok writes the file once, `O_EXCL`). Never throws.
 * @public
 */
export async function grokBucketCwdFile(fs: FileSystemPort, bucket: string, now?: GrokClock): Promise<string | null> {
  const path = join(bucket, '.cwd');
  const mem = now === undefined ? undefined : memory.get(fs);
  let st: FileStat | null = null;
  if (now !== undefined) {
    st = await lstatOrNull(fs, path).catch(() => null);
    if (st === null || st.kind !== 'file') {
      mem?.delete(path);
      return null;
    }
    const hit = mem?.get(path);
    if (hit !== undefined && hit.stamp === stampOf(st)) return hit.cwd;
  }
  const read = await readGrokFile(fs, path, MAX_CWD_BYTES);
  if (read.kind !== 'text') return null;
  const cwd = read.text.trim();
  const t = now?.() ?? Number.NaN;
  // The settle rule of every remembered look (a rewrite within the same timestamp tick would leave the stamp unchanged).
  if (st !== null && settled([st], t)) {
    let m = memory.get(fs);
    if (m === undefined) memory.set(fs, (m = new Map()));
    m.set(path, { stamp: stampOf(st), cwd });
  }
  return cwd;
}
