import { isAbsolute } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { readRolloutHead } from './rollout-head.js';

/**
 * Whether a rollout of the conversation is there (a regular file, so a FIFO or device never blocks the read) and its first
 * record names the id and one of the workspace's cwds (a head without a cwd passes only when the state DB vouched for it);
 * resolves its mtime, or null. A sub-agent thread's rollout never passes: a spawned child is part of its parent's conversation,
 * never a conversation of its own (as OpenCode's child sessions).
 * @public
 */
export async function checkRollout(fs: FileSystemPort, path: string, id: string, cwds: ReadonlySet<string>, cwdVouched: boolean): Promise<number | null> {
  if (!isAbsolute(path) || path.includes('\0')) return null;
  let mtimeMs: number;
  try {
    const st = await fs.stat(path);
    if (st.kind !== 'file') return null;
    mtimeMs = st.mtimeMs;
  } catch {
    return null;
  }
  const head = await readRolloutHead(fs, path);
  if (head === null || head.id !== id || head.parent !== undefined) return null;
  if (head.cwd === null ? !cwdVouched : !cwds.has(head.cwd)) return null;
  return mtimeMs;
}
