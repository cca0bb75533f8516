import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What reading one of grok's own small files gave: its text, or why not (`missing`, or a `problem` a person reads).
 * @public
 */
export type GrokRead = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'problem'; problem: string };

/**
 * Reads a file of grok's tree only when `lstat` says it is a regular file of at most `maxBytes` (a link, FIFO or
 * directory is never opened). Never throws.
 * @public
 */
export async function readGrokFile(fs: FileSystemPort, path: string, maxBytes: number): Promise<GrokRead> {
  let st;
  try {
    st = await fs.lstat(path);
  } catch {
    return { kind: 'missing' };
  }
  if (st.kind !== 'file') return { kind: 'problem', problem: st.kind === 'symlink' ? 'is a symbolic link' : 'is not a regular file' };
  if (st.size > maxBytes) return { kind: 'problem', problem: `is larger than ${maxBytes} bytes` };
  try {
    // Read what lstat saw and one byte more (a buffer of the file's size, not of the cap); a file that has grown since
    // (replaced between the lstat and the open) is read again up to the cap.
    const want = Math.min(maxBytes, st.size) + 1;
    let bytes = await fs.readHead(path, want);
    if (bytes.byteLength >= want && want <= maxBytes) bytes = await fs.readHead(path, maxBytes + 1);
    if (bytes.byteLength > maxBytes) return { kind: 'problem', problem: `is larger than ${maxBytes} bytes` };
    return { kind: 'text', text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  } catch (err) {
    return { kind: 'problem', problem: `could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
}

/**
 * The entries of a directory of grok's tree, or null when it cannot be listed. Never throws.
 * @public
 */
export async function listGrokDir(fs: FileSystemPort, path: string): Promise<Array<{ name: string; kind: string }> | null> {
  try {
    return await fs.readdir(path);
  } catch {
    return null;
  }
}
