import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';

/**
 * A live-session file `sessions/<pid>.json` that names a conversation, with what it says about the process.
 * @public
 */
export interface ClaudeSessionFile {
  /** The session file's path. */
  path: string;
  /** The pids it names: the file name's and the record's `pid` (when they differ, either may be the live one). */
  pids: number[];
  /** The record's `procStart` as written (field 22 of /proc/<pid>/stat), or undefined. */
  procStart: unknown;
  /** The record's `startedAt` as written (epoch ms), or undefined. */
  startedAt: unknown;
}

// A session file is a few hundred bytes; anything far larger is not one, and is read only this far.
const MAX_SESSION_FILE = 1024 * 1024;
const PID_FILE = /^([1-9][0-9]{0,9})\.json$/;

function asPid(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

// A half-written file cannot be parsed, but still names the id if its text does; its pid then comes from the file name.
function parse(text: string, id: string, namePid: number): ClaudeSessionFile | 'other' {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return text.toLowerCase().includes(id) ? { path: '', pids: [namePid], procStart: undefined, startedAt: undefined } : 'other';
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return 'other';
  const r = rec as Record<string, unknown>;
  const sid = r['sessionId'];
  if (typeof sid !== 'string' || sid.trim().toLowerCase() !== id) return 'other';
  const pids = [...new Set([namePid, asPid(r['pid'])].filter((p): p is number => p !== null))];
  return { path: '', pids, procStart: r['procStart'], startedAt: r['startedAt'] };
}

/**
 * The files of `<config>/sessions/` that name the (canonical, lower-case) id; a missing or unreadable dir names none.
 * @public
 */
export async function sessionFilesNaming(fs: FileSystemPort, sessionsDir: string, id: string): Promise<ClaudeSessionFile[]> {
  const entries = await fs.readdir(sessionsDir).catch(() => []);
  const named = entries.flatMap((e) => {
    const m = e.kind === 'file' ? PID_FILE.exec(e.name) : null;
    return m === null ? [] : [{ path: join(sessionsDir, e.name), pid: Number(m[1]) }];
  });
  const read = await mapLimit(named, 16, async ({ path, pid }) => {
    try {
      const text = new TextDecoder().decode(await fs.readHead(path, MAX_SESSION_FILE));
      const found = parse(text, id, pid);
      return found === 'other' ? null : { ...found, path };
    } catch {
      return null;
    }
  });
  return read.filter((f): f is ClaudeSessionFile => f !== null);
}
