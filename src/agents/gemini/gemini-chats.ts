import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { canonicalUuid } from '../contract/uuid.js';
import type { GeminiProject } from './gemini-projects.js';
import { listDirOrNull, readRegularFile } from '../common/read-regular.js';

/** The first line (the metadata record) is small; more than this is not a chat file of a known layout. */
const FIRST_LINE_MAX = 64 * 1024;

/** The name of a chat file of 0.61: `session-<YYYY-MM-DDTHH-MM>-<first 8 hex of the id>.jsonl`. */
const CHAT_NAME = /^session-.*\.jsonl$/;
/** An older whole-JSON chat file: a layout the library does not read (a purge refuses when one names the id). */
const OLD_CHAT_NAME = /^session-.*\.json$/;

/**
 * One chat file and the conversation its first line names.
 * @public
 */
export interface GeminiChat {
  /** The chat file. */
  path: string;
  /** The canonical id its first line's `sessionId` names. */
  id: string;
  /** Its modification time (the last write of the conversation), epoch ms. */
  mtimeMs: number;
}

/**
 * The chat files of one project, each with the id of its first line (the file name holds only 8 hex characters of it),
 * and what could not be read: files that vanished between the listing and the read are skipped, others are `problems`;
 * `unknown` lists files of a layout the library does not read (whole-JSON chat files, first lines that are no metadata
 * record) with the head of their text. Never throws.
 * @public
 */
export async function projectChats(
  fs: FileSystemPort,
  project: GeminiProject,
): Promise<{ chats: GeminiChat[]; problems: string[]; unknown: Array<{ path: string; head: string }> }> {
  const out = { chats: [] as GeminiChat[], problems: [] as string[], unknown: [] as Array<{ path: string; head: string }> };
  if (project.link) return out;
  const dir = join(project.dir, 'chats');
  const kind = await fs.lstat(dir).then((s) => s.kind, () => null);
  if (kind === null) return out;
  if (kind !== 'dir') {
    out.problems.push(`${dir}: not a directory${kind === 'symlink' ? ' (a symbolic link: not followed)' : ''}`);
    return out;
  }
  for (const e of ((await listDirOrNull(fs, dir)) ?? []).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const known = CHAT_NAME.test(e.name);
    if (!known && !OLD_CHAT_NAME.test(e.name)) continue;
    const path = join(dir, e.name);
    const read = await readRegularFile(fs, path, FIRST_LINE_MAX, true);
    if (read.kind === 'missing') continue;
    if (read.kind === 'problem') {
      out.problems.push(`${path}: ${read.problem}`);
      continue;
    }
    const id = known ? firstLineId(read.text) : null;
    if (id === null) out.unknown.push({ path, head: read.text });
    else out.chats.push({ path, id, mtimeMs: read.mtimeMs });
  }
  return out;
}

/**
 * The canonical id the first line of a chat file names (`{"sessionId": …, "projectHash": …, …}`), or null.
 * @public
 */
export function firstLineId(text: string): string | null {
  const nl = text.indexOf('\n');
  try {
    const first = JSON.parse(nl < 0 ? text : text.slice(0, nl)) as { sessionId?: unknown };
    return typeof first === 'object' && first !== null ? canonicalUuid(first.sessionId) : null;
  } catch {
    return null;
  }
}

/**
 * The conversations of a set of chat files, one per id however many files it has (a resume may add a second small file
 * naming the same id), newest first by the latest write of any of its files.
 * @public
 */
export function conversationsOf(chats: readonly GeminiChat[]): Array<{ id: string; mtimeMs: number; paths: string[] }> {
  const byId = new Map<string, { id: string; mtimeMs: number; paths: string[] }>();
  for (const c of chats) {
    const seen = byId.get(c.id);
    if (seen === undefined) byId.set(c.id, { id: c.id, mtimeMs: c.mtimeMs, paths: [c.path] });
    else {
      seen.paths.push(c.path);
      seen.mtimeMs = Math.max(seen.mtimeMs, c.mtimeMs);
    }
  }
  return [...byId.values()].sort((a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? -1 : 1));
}
