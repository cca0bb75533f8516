import { isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What reading one small file of an agent's tree gave: its text and modification time, or why not (`missing`: nothing
 * there, or it vanished before the read; `problem`: a person reads why).
 */
export type RegularRead = { kind: 'text'; text: string; mtimeMs: number } | { kind: 'missing' } | { kind: 'problem'; problem: string };

/**
 * Reads a file only when `lstat` says it is a regular file (a link, FIFO or directory is never opened): the whole file up
 * to `maxBytes` (larger is a problem), or with `head` its first `maxBytes` bytes whatever its size. A file gone between
 * the listing and the read is `missing`. Never throws.
 */
export async function readRegularFile(fs: FileSystemPort, path: string, maxBytes: number, head = false): Promise<RegularRead> {
  let st;
  try {
    st = await fs.lstat(path);
  } catch {
    return { kind: 'missing' };
  }
  if (st.kind !== 'file') return { kind: 'problem', problem: st.kind === 'symlink' ? 'is a symbolic link' : 'is not a regular file' };
  const tooLarge = { kind: 'problem', problem: `is larger than ${maxBytes} bytes` } as const;
  if (!head && st.size > maxBytes) return tooLarge;
  try {
    let bytes;
    if (head) bytes = await fs.readHead(path, maxBytes);
    else {
      // Read what lstat saw and one byte more (a buffer of the file's size, not of the cap); a file that has grown since
      // (replaced between the lstat and the open) is read again up to the cap.
      const want = Math.min(maxBytes, st.size) + 1;
      bytes = await fs.readHead(path, want);
      if (bytes.byteLength >= want && want <= maxBytes) bytes = await fs.readHead(path, maxBytes + 1);
      if (bytes.byteLength > maxBytes) return tooLarge;
    }
    return { kind: 'text', text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), mtimeMs: st.mtimeMs };
  } catch (err) {
    if (isPortError(err, 'NotFound')) return { kind: 'missing' };
    return { kind: 'problem', problem: `could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** The entries of a directory, or null when it cannot be listed (missing, not a directory, unreadable). Never throws. */
export async function listDirOrNull(fs: FileSystemPort, path: string): Promise<Array<{ name: string; kind: string }> | null> {
  try {
    return await fs.readdir(path);
  } catch {
    return null;
  }
}
