import type { FileSystemPort } from '../../ports/fs.js';
import { canonicalAgyId } from './agy-ids.js';
import { readAgyText } from '../common/read-text.js';

/** Larger than any real `last_conversations.json`; a bigger file is not parsed (and maps nothing). */
const MAX_CACHE_BYTES = 1 << 20;

/**
 * One mapping of `cache/last_conversations.json`: a workspace (as the CLI recorded it) and the canonical id of its last
 * conversation.
 * @public
 */
export interface AgyCacheEntry {
  workspace: string;
  id: string;
}

// A link, FIFO or directory in the cache's place is never opened.
function cacheText(fs: FileSystemPort, cacheFile: string): Promise<string | null> {
  return readAgyText(fs, cacheFile, MAX_CACHE_BYTES);
}

function entriesOf(text: string | null): AgyCacheEntry[] {
  let parsed: unknown;
  try {
    parsed = text === null ? null : JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const out: AgyCacheEntry[] = [];
  for (const [workspace, value] of Object.entries(parsed as Record<string, unknown>)) {
    const id = canonicalAgyId(value);
    if (id !== null) out.push({ workspace, id });
  }
  return out;
}

/**
 * The plausible mappings of agy's last-conversation cache; a missing, oversized or malformed file maps nothing, and a value
 * that is not a uuid is left out. Never throws.
 * @public
 */
export async function readAgyCache(fs: FileSystemPort, cacheFile: string): Promise<AgyCacheEntry[]> {
  return entriesOf(await cacheText(fs, cacheFile));
}

/**
 * True when the cache still names the canonical id (as a mapped value, or anywhere in its text in either case): the cache
 * is shared by every workspace, so a purge never rewrites it and reports it as a mention instead. Never throws.
 * @public
 */
export async function agyCacheNames(fs: FileSystemPort, cacheFile: string, id: string): Promise<boolean> {
  const text = await cacheText(fs, cacheFile);
  if (text === null) return false;
  return text.toLowerCase().includes(id) || entriesOf(text).some((e) => e.id === id);
}
