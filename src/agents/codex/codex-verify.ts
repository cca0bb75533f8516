import type { FileSystemPort } from '../../ports/fs.js';
import type { CodexHome } from './codex-home.js';
import { verifyThreads } from './codex-verify-many.js';
import type { StateClock } from './state-cache.js';

/**
 * Whether the canonical id has a conversation of the workspace on disk: {@link verifyThreads} for one id (the one rule
 * set; `strict` is discover mode). `cwdSet` (the workspace as given and its realpath) may still be on its way. With `now`
 * (the ports' clock), the listing and schema facts are remembered as in `discoverThreads`. Never throws.
 * @public
 */
export async function verifyThread(
  fs: FileSystemPort,
  home: CodexHome,
  cwdSet: ReadonlySet<string> | PromiseLike<ReadonlySet<string>>,
  id: string,
  strict: boolean,
  now?: StateClock,
): Promise<boolean> {
  const [answer] = await verifyThreads(fs, home, [{ id, cwds: cwdSet }], { strict, now });
  return answer === true;
}
