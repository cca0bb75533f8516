import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { LeftArtifact } from '../../purge/artifact.js';
import { projectChats } from './gemini-chats.js';
import { type GeminiLogEntries, logEntriesOf } from './gemini-logs.js';
import { type GeminiProject, geminiProjects } from './gemini-projects.js';

/**
 * Everything of one conversation under a Gemini CLI root, found in every project of `tmp/` (a purge does not trust the
 * workspace it is given to say where the id lives).
 * @public
 */
export interface GeminiSurvey {
  /** The Gemini CLI root (`~/.gemini`): removal never leaves it. */
  root: string;
  /** The chat files whose first line names the id (one conversation may own several). */
  chats: string[];
  /** The conversation's own `tmp/<short>/<id>/` dirs (plans …), of whatever kind lstat gives. */
  sessionDirs: string[];
  /** The projects' `logs.json` files naming the id. */
  logs: GeminiLogEntries[];
  /** Files of a layout the library does not read that name the id: a purge of it refuses. */
  refused: LeftArtifact[];
  /** The projects any of the above belongs to. */
  projects: GeminiProject[];
}

/**
 * Surveys the (canonical) id under `root`: chat files by their first line, session dirs, `logs.json` entries. Links are
 * not followed; chat files that vanish while it looks are skipped. Never throws.
 * @public
 */
export async function surveyGemini(fs: FileSystemPort, root: string, id: string): Promise<GeminiSurvey> {
  const out: GeminiSurvey = { root, chats: [], sessionDirs: [], logs: [], refused: [], projects: [] };
  for (const project of await geminiProjects(fs, root)) {
    if (project.link) continue;
    let found = false;
    const { chats, unknown } = await projectChats(fs, project);
    for (const c of chats) {
      if (c.id !== id) continue;
      out.chats.push(c.path);
      found = true;
    }
    for (const u of unknown) {
      if (!u.head.toLowerCase().includes(id)) continue;
      out.refused.push({ kind: 'file', path: u.path, reason: 'a chat file of a layout the library does not read names the id: refusing to purge' });
      found = true;
    }
    const dir = join(project.dir, id);
    if (await fs.lstat(dir).then(() => true, () => false)) {
      out.sessionDirs.push(dir);
      found = true;
    }
    const logs = await logEntriesOf(fs, project, id);
    if (logs !== null) {
      out.logs.push(logs);
      found = true;
    }
    if (found) out.projects.push(project);
  }
  return out;
}
