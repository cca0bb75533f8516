import { describeError, isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { StoreSurvey } from '../types.js';

/**
 * The survey of a store root: `missing` when nothing is there, `unreadable` when it cannot be listed (or is no dir),
 * else `ok` with its entry count. Never throws.
 * @public
 */
export async function surveyRoot(fs: FileSystemPort, agent: string, root: string): Promise<StoreSurvey> {
  try {
    const st = await fs.stat(root);
    if (st.kind !== 'dir') return { agent, store: 'unreadable', root, reason: `${root} is not a directory` };
    const entries = await fs.readdir(root);
    return { agent, store: 'ok', root, counts: { entries: entries.length } };
  } catch (err) {
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) return { agent, store: 'missing', root, reason: `${root} does not exist` };
    return { agent, store: 'unreadable', root, reason: describeError(err) };
  }
}
