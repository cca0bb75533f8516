import { join } from 'node:path';
import { canonicalGrokId } from './grok-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessInfo } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';
import { readRegularFile } from '../common/read-regular.js';

/** A pretty JSON array of a few entries per open TUI; far larger is not grok's. */
const MAX_ACTIVE_BYTES = 4 * 1024 * 1024;
// `ps` gives the start to the second (truncated) and grok writes `opened_at` after its own start-up: a process that
// started more than this after `opened_at` is a later process under a reused pid.
const SLACK_MS = 2_000;

/**
 * One entry of grok's `active_sessions.json` (written by an open TUI, removed on a clean exit, stale after a crash).
 * @public
 */
export interface GrokActiveSession {
  /** `session_id`, canonical, or null when it is not a plausible id. */
  sessionId: string | null;
  /** The TUI's pid. */
  pid: number;
  /** `opened_at`, epoch ms, or null when it does not parse. */
  openedAtMs: number | null;
}

/**
 * The path of `active_sessions.json` under grok's home.
 * @public
 */
export function grokActiveSessionsPath(root: string): string {
  return join(root, 'active_sessions.json');
}

/**
 * The entries of `active_sessions.json` (a regular file only); none when it is missing or not understood. Never throws.
 * @public
 */
export async function readGrokActiveSessions(fs: FileSystemPort, root: string): Promise<GrokActiveSession[]> {
  const read = await readRegularFile(fs, grokActiveSessionsPath(root), MAX_ACTIVE_BYTES);
  if (read.kind !== 'text') return [];
  let list: unknown;
  try {
    list = JSON.parse(read.text);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const out: GrokActiveSession[] = [];
  for (const e of list as unknown[]) {
    if (e === null || typeof e !== 'object') continue;
    const r = e as Record<string, unknown>;
    const pid = r['pid'];
    if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) continue;
    const at = typeof r['opened_at'] === 'string' ? Date.parse(r['opened_at']) : Number.NaN;
    out.push({ sessionId: canonicalGrokId(r['session_id']), pid, openedAtMs: Number.isFinite(at) ? at : null });
  }
  return out;
}

/**
 * Whether an entry's pid is the live TUI that wrote it: alive (not a zombie) and started no later than `opened_at` (a
 * start that cannot be told counts as live, the careful answer for a purge).
 * @public
 */
export function grokEntryLive(entry: GrokActiveSession, proc: ProcessInfo | undefined): boolean {
  if (proc === undefined || !isLiveProcess(proc)) return false;
  if (proc.startedAtMs === null || entry.openedAtMs === null) return true;
  return proc.startedAtMs <= entry.openedAtMs + SLACK_MS;
}
