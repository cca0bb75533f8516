import { prepared } from '../../sqlite/prepared.js';
import { isInside } from '../../paths/is-inside.js';
import type { ProcessInfo, ProcessPort } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';
import { agentCliName } from '../../process/agent-cli-name.js';
import type { InUseHolder } from '../types.js';

/**
 * Whether a process holding OpenCode's shared database can be using the session `id`: its command line names the id, or its
 * cwd is one of the session's directories or below (an OpenCode TUI lists only its own project's sessions); a cwd that
 * cannot be told, or a session whose directory is unknown, keeps the home-wide rule (it may be using any session).
 * @public
 */
export async function canUseSession(proc: ProcessPort, p: Pick<ProcessInfo, 'pid' | 'command' | 'argv'>, id: string, dirs: readonly string[]): Promise<boolean> {
  const text = [p.command, ...(p.argv ?? [])].join('\0');
  if (text.includes(id)) return true;
  if (dirs.length === 0) return true;
  const cwd = (await proc.cwdOf?.(p.pid).catch(() => null)) ?? null;
  if (cwd === null) return true;
  return dirs.some((d) => isInside(d, cwd));
}

/**
 * The opencode process the caller's tool shell belongs to: OpenCode 1.18 exports `OPENCODE_PID` (not a session id) to its
 * tool shells, so a purge run from inside an opencode session finds that process here — and the session it uses is in
 * use. Counted for `id` when that process is alive, is opencode, and can be using it ({@link canUseSession}).
 * @public
 */
export async function callerOpencodeSession(proc: ProcessPort, id: string, dirs: readonly string[]): Promise<InUseHolder[]> {
  const raw = proc.env()['OPENCODE_PID']?.trim() ?? '';
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) return [];
  const p = await proc.lookup(Number(raw)).catch(() => null);
  if (p === null || !isLiveProcess(p) || agentCliName(p) !== 'opencode') return [];
  if (!(await canUseSession(proc, p, id, dirs))) return [];
  return [{ pid: p.pid, command: `${p.command} (the opencode session this process runs in: OPENCODE_PID)`, signal: 'session-env', detail: 'OPENCODE_PID' }];
}

/**
 * The directories an OpenCode process must work in to reach the session, read through an already read-only connection:
 * the session's `directory`, its project's `worktree`, and every other checkout of the same project OpenCode has run in
 * (`project_directory`, `project.sandboxes`: a project is a repository's root commit, so a TUI in a clone or git worktree
 * lists — and can switch to — the project's sessions, as OpenCode 1.18.33 was seen to do); `/` for the `global` project
 * (sessions outside any git repository are reachable from anywhere); empty when the schema does not say.
 * @public
 */
export function sessionReach(db: import('better-sqlite3').Database, id: string): string[] {
  try {
    const row = prepared(db, 'SELECT s.directory AS dir, s.project_id AS project, p.worktree AS worktree, p.sandboxes AS sandboxes FROM session AS s LEFT JOIN project AS p ON p.id = s.project_id WHERE s.id = ?').get(id) as { dir: unknown; project: unknown; worktree: unknown; sandboxes: unknown } | undefined;
    if (row === undefined) return [];
    if (row.project === 'global') return ['/'];
    const dirs: unknown[] = [row.dir, row.worktree, ...projectDirectories(db, row.project), ...jsonList(row.sandboxes)];
    return [...new Set(dirs.filter((d): d is string => typeof d === 'string' && d.startsWith('/')))];
  } catch {
    return [];
  }
}

// A missing table or column (an older schema) says nothing more.
function projectDirectories(db: import('better-sqlite3').Database, project: unknown): unknown[] {
  if (typeof project !== 'string') return [];
  try {
    return prepared(db, 'SELECT directory FROM project_directory WHERE project_id = ?', 'pluck').all(project);
  } catch {
    return [];
  }
}

function jsonList(text: unknown): unknown[] {
  if (typeof text !== 'string') return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
