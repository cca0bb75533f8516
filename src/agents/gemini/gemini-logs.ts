import { join } from 'node:path';
import { writeFileAtomic } from '../../atomic/atomic-write.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { ownFileRefusal } from '../../sqlite/db-write-guard.js';
import type { GeminiProject } from './gemini-projects.js';
import { readRegularFile } from '../common/read-regular.js';

/** The TUI prompt log of a project stays small; a larger one is not rewritten. */
const LOGS_MAX = 32 * 1024 * 1024;

/**
 * What one project's `logs.json` holds of a conversation: `count` entries whose `sessionId` is the id, or (`parsed` false)
 * a file that is not the JSON array the CLI writes but whose text names the id (never rewritten).
 * @public
 */
export interface GeminiLogEntries {
  /** `tmp/<short>/logs.json`. */
  path: string;
  /** The project it belongs to. */
  project: GeminiProject;
  /** Entries naming the id (0 when `parsed` is false). */
  count: number;
  /** True when the file is a JSON array of entries. */
  parsed: boolean;
}

function sameId(value: unknown, id: string): boolean {
  return typeof value === 'string' && value.toLowerCase() === id;
}

async function readLogs(fs: FileSystemPort, path: string): Promise<{ text: string; entries: unknown[] | null } | null> {
  const read = await readRegularFile(fs, path, LOGS_MAX);
  if (read.kind !== 'text') return null;
  try {
    const v = JSON.parse(read.text) as unknown;
    return { text: read.text, entries: Array.isArray(v) ? v : null };
  } catch {
    return { text: read.text, entries: null };
  }
}

/**
 * The `logs.json` entries of the (canonical) id in one project, or null when the file names it nowhere. Never throws.
 * @public
 */
export async function logEntriesOf(fs: FileSystemPort, project: GeminiProject, id: string): Promise<GeminiLogEntries | null> {
  if (project.link) return null;
  const path = join(project.dir, 'logs.json');
  const logs = await readLogs(fs, path);
  if (logs === null) return null;
  if (logs.entries === null) return logs.text.toLowerCase().includes(id) ? { path, project, count: 0, parsed: false } : null;
  const count = logs.entries.filter((e) => typeof e === 'object' && e !== null && sameId((e as { sessionId?: unknown }).sessionId, id)).length;
  return count > 0 ? { path, project, count, parsed: true } : null;
}

/**
 * Rewrites a project's `logs.json` atomically without the entries of the id (the rest kept in order, written as the CLI
 * writes it: two-space JSON). Refuses a file that is not a regular file of its own (a link, other hard links). Returns
 * how many entries went.
 * @public
 */
export async function dropLogEntries(fs: FileSystemPort, path: string, id: string): Promise<number> {
  const st = await fs.lstat(path);
  const refusal = ownFileRefusal(path, st);
  if (refusal !== null) throw new Error(refusal.message);
  const logs = await readLogs(fs, path);
  if (logs === null || logs.entries === null) return 0;
  const kept = logs.entries.filter((e) => !(typeof e === 'object' && e !== null && sameId((e as { sessionId?: unknown }).sessionId, id)));
  const dropped = logs.entries.length - kept.length;
  if (dropped > 0) await writeFileAtomic(fs, path, JSON.stringify(kept, null, 2));
  return dropped;
}
