import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import { readTranscriptHead } from './transcript-head.js';
import type { ClaudeWorkspace } from './workspace-match.js';
import { canonicalClaudeId } from './claude-ids.js';

/**
 * A transcript of a workspace: its id, path, where it started (first record's timestamp, else the file's mtime), and whether
 * its records name the workspace (`cwd`) or name no cwd at all.
 * @public
 */
export interface WorkspaceTranscript {
  id: string;
  path: string;
  startMs: number;
  /** `match`: the first recorded cwd is the workspace; `silent`: no record names a cwd. */
  cwd: 'match' | 'silent';
}

const HEAD_READS_IN_FLIGHT = 32;
const JSONL = '.jsonl';

/**
 * The ids of `<uuid>.jsonl` regular files in a key dir (Claude writes lower-case ids; any other spelling is not its file).
 * A missing or unreadable dir has none.
 * @public
 */
export async function transcriptIds(fs: FileSystemPort, keyDir: string): Promise<string[]> {
  const entries = await fs.readdir(keyDir).catch(() => []);
  const ids: string[] = [];
  for (const e of entries) {
    if (e.kind !== 'file' || !e.name.endsWith(JSONL)) continue;
    const stem = e.name.slice(0, -JSONL.length);
    if (canonicalClaudeId(stem) === stem) ids.push(stem);
  }
  return ids;
}

/**
 * Reads the head of one transcript and decides whether it belongs to `ws`; null when it names another cwd or cannot be read.
 * @public
 */
export async function workspaceTranscript(fs: FileSystemPort, ws: ClaudeWorkspace, id: string, path: string): Promise<WorkspaceTranscript | null> {
  try {
    const head = await readTranscriptHead(fs, path);
    if (head.cwd !== null && !(await ws.matches(head.cwd))) return null;
    const startMs = head.startMs ?? (await fs.stat(path)).mtimeMs;
    return { id, path, startMs, cwd: head.cwd === null ? 'silent' : 'match' };
  } catch {
    return null;
  }
}

/**
 * Every transcript under `projectsRoot` whose first recorded cwd is the workspace: one listing per key dir, and of each
 * transcript only its head.
 * @public
 */
export async function workspaceTranscripts(fs: FileSystemPort, projectsRoot: string, ws: ClaudeWorkspace): Promise<WorkspaceTranscript[]> {
  const found: WorkspaceTranscript[] = [];
  for (const key of ws.keys) {
    const dir = join(projectsRoot, key);
    const ids = await transcriptIds(fs, dir);
    const heads = await mapLimit(ids, HEAD_READS_IN_FLIGHT, (id) => workspaceTranscript(fs, ws, id, join(dir, `${id}${JSONL}`)));
    for (const t of heads) if (t !== null && t.cwd === 'match') found.push(t);
  }
  return found;
}
