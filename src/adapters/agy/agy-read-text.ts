import type { FileSystemPort } from '../../ports/fs.js';

/**
 * The UTF-8 text of a small file of an agy root, or null when it is missing, not a regular file (a link, a FIFO, a
 * directory: never opened), larger than `maxBytes` or not valid UTF-8. Never throws.
 * @public
 */
export async function readAgyText(fs: FileSystemPort, path: string, maxBytes: number): Promise<string | null> {
  try {
    const st = await fs.lstat(path);
    if (st.kind !== 'file' || st.size > maxBytes) return null;
    const head = await fs.readHead(path, maxBytes + 1);
    if (head.byteLength > maxBytes) return null;
    return new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    return null;
  }
}
