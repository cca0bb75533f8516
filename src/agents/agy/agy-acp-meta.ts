import type { FileSystemPort } from '../../ports/fs.js';
import { readAgyText } from '../common/read-text.js';

/** Larger than any real `.meta` (a one-key JSON object). */
const MAX_META_BYTES = 64 * 1024;

/**
 * The `cwd` an ACP conversation's `<id>.meta` records (the ACP server writes an empty metadata blob, so this is its only
 * workspace record), or null when the file is missing, not a regular file, malformed or has no string `cwd`. Never throws.
 * @public
 */
export async function readAgyAcpCwd(fs: FileSystemPort, metaPath: string): Promise<string | null> {
  const text = await readAgyText(fs, metaPath, MAX_META_BYTES);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    const cwd = (parsed as Record<string, unknown>)['cwd'];
    return typeof cwd === 'string' && cwd !== '' && !cwd.includes('\0') ? cwd : null;
  } catch {
    return null;
  }
}
