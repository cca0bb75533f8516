import { isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What reading one of Gemini CLI's files gave: its text, or why not (`missing`: nothing there, or it vanished; `problem`:
 * a person reads why).
 * @public
 */
export type GeminiRead = { kind: 'text'; text: string; mtimeMs: number } | { kind: 'missing' } | { kind: 'problem'; problem: string };

/**
 * Reads a file only when `lstat` says it is a regular file (a link, FIFO or directory is never opened): the whole file up
 * to `maxBytes`, or with `head` its first `maxBytes` bytes whatever its size. A file gone between the listing and the read
 * is `missing`. Never throws.
 * @public
 */
export async function readGeminiFile(fs: FileSystemPort, path: string, maxBytes: number, head = false): Promise<GeminiRead> {
  let st;
  try {
    st = await fs.lstat(path);
  } catch {
    return { kind: 'missing' };
  }
  if (st.kind !== 'file') return { kind: 'problem', problem: st.kind === 'symlink' ? 'is a symbolic link' : 'is not a regular file' };
  if (!head && st.size > maxBytes) return { kind: 'problem', problem: `is larger than ${maxBytes} bytes` };
  try {
    const bytes = await fs.readHead(path, head ? maxBytes : maxBytes + 1);
    if (!head && bytes.byteLength > maxBytes) return { kind: 'problem', problem: `is larger than ${maxBytes} bytes` };
    return { kind: 'text', text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), mtimeMs: st.mtimeMs };
  } catch (err) {
    if (isPortError(err, 'NotFound')) return { kind: 'missing' };
    return { kind: 'problem', problem: `could not be read (${err instanceof Error ? err.message : String(err)})` };
  }
}

/**
 * The entries of a directory, or null when it cannot be listed (missing, not a directory). Never throws.
 * @public
 */
export async function listGeminiDir(fs: FileSystemPort, path: string): Promise<Array<{ name: string; kind: string }> | null> {
  try {
    return await fs.readdir(path);
  } catch {
    return null;
  }
}
