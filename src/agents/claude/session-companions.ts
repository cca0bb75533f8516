import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ArtifactPath } from '../common/artifacts.js';

/**
 * The files Claude Code 2.1.332 keeps beside a live-session file `sessions/<pid>.json` and removes on a clean exit: the key
 * `sessions/<pid>.<hash>.key` and the socket `<tmp>/cc-socks/<pid>.sock`. After a crash they stay as orphans no later run
 * removes, so a purge removes them with the pid file they belong to. Only what exists is returned; never rejects.
 * @public
 */
export async function sessionCompanions(fs: FileSystemPort, config: string, tmpRoots: readonly string[], pids: readonly number[]): Promise<ArtifactPath[]> {
  const sessions = join(config, 'sessions');
  const names = (await fs.readdir(sessions).catch(() => [])).filter((e) => e.kind !== 'dir').map((e) => e.name);
  const out: ArtifactPath[] = [];
  for (const pid of pids) {
    for (const n of names.filter((x) => x.startsWith(`${pid}.`) && x.endsWith('.key') && x.length > `${pid}..key`.length).sort()) {
      out.push({ root: config, path: join(sessions, n) });
    }
    for (const tmp of tmpRoots) {
      const sock = join(tmp, 'cc-socks', `${pid}.sock`);
      if (await fs.lstat(sock).then(() => true, () => false)) out.push({ root: tmp, path: sock });
    }
  }
  return out;
}
