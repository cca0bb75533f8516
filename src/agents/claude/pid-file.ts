import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import { sessionLiveness } from './session-liveness.js';

const MAX_SESSION_FILE = 1024 * 1024;

/**
 * The conversation a live Claude process is on now, from its `sessions/<pid>.json` (`/clear` keeps the pid and switches the
 * file to the new `sessionId`): the lower-case id, or null when there is no such file, it cannot be read, or its process
 * is gone or reused (the file is then stale and says nothing about that pid). Never rejects.
 * @public
 */
export async function currentSessionOf(fs: FileSystemPort, proc: ProcessPort, config: string, pid: number, nowMs: number): Promise<string | null> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  try {
    const path = join(config, 'sessions', `${pid}.json`);
    if ((await fs.lstat(path)).kind !== 'file') return null;
    const rec = JSON.parse(new TextDecoder().decode(await fs.readHead(path, MAX_SESSION_FILE))) as unknown;
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return null;
    const r = rec as Record<string, unknown>;
    const sid = r['sessionId'];
    if (typeof sid !== 'string' || sid.trim() === '') return null;
    const p = await proc.lookup(pid);
    if (p === null) return null;
    const live = sessionLiveness({ pids: [pid], procStart: r['procStart'], startedAt: r['startedAt'] }, new Map([[pid, p]]), nowMs);
    return live.kind === 'live' ? sid.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}
