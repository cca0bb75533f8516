import { isAbsolute } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { directoryMatcher } from '../common/same-directory.js';

/**
 * The `directoryMatcher` answer for many recorded directories at the cost of one `stat` each: a directory whose
 * `stat` (device, inode) is not the workspace's cannot resolve to it, so it is ruled out before any realpath; the others
 * (the workspace itself, a link to it, or a workspace that cannot be looked at) get the matcher's own answer.
 * @public
 */
export function workspaceMatcher(fs: FileSystemPort, workspace: string): (recorded: string) => Promise<boolean> {
  const matcher = directoryMatcher(fs, workspace);
  matcher.catch(() => undefined);
  const own = fs.stat(workspace).catch(() => null);
  return async (recorded: string): Promise<boolean> => {
    const m = await matcher;
    const ws = await own;
    if (ws !== null && typeof recorded === 'string' && isAbsolute(recorded) && !recorded.includes('\0')) {
      const st = await fs.stat(recorded).catch(() => null);
      if (st === null || st.dev !== ws.dev || st.ino !== ws.ino) return false;
    }
    return m.matches(recorded);
  };
}
