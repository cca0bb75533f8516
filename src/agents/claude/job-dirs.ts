import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';

/**
 * What the scan of `<config>/jobs/` found for one id: the job dirs whose `state.json` names it as `sessionId`, and the dirs
 * whose state could not be read but whose text names it (never removed: nothing proves they are this conversation's).
 * @public
 */
export interface JobDirScan {
  dirs: string[];
  unreadable: string[];
}

const MAX_STATE = 4 * 1024 * 1024;

async function judge(fs: FileSystemPort, dir: string, id: string): Promise<'mine' | 'unreadable' | 'other'> {
  let text: string;
  try {
    text = new TextDecoder().decode(await fs.readHead(join(dir, 'state.json'), MAX_STATE));
  } catch {
    return 'other';
  }
  try {
    const rec = JSON.parse(text) as unknown;
    if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return 'other';
    const sid = (rec as Record<string, unknown>)['sessionId'];
    return typeof sid === 'string' && sid.trim().toLowerCase() === id ? 'mine' : 'other';
  } catch {
    return text.toLowerCase().includes(id) ? 'unreadable' : 'other';
  }
}

/**
 * The background-job dirs `<config>/jobs/<short-id>/` (Claude Code 2.1 agent view) whose `state.json` names the id;
 * a linked job dir is listed too (its removal is then refused and reported). Never rejects.
 * @public
 */
export async function jobDirsNaming(fs: FileSystemPort, jobsRoot: string, id: string): Promise<JobDirScan> {
  const entries = await fs.readdir(jobsRoot).catch(() => []);
  const dirs = entries.filter((e) => e.kind === 'dir' || e.kind === 'symlink').map((e) => join(jobsRoot, e.name));
  const verdicts = await mapLimit(dirs, 16, (d) => judge(fs, d, id));
  return {
    dirs: dirs.filter((_, i) => verdicts[i] === 'mine'),
    unreadable: dirs.filter((_, i) => verdicts[i] === 'unreadable'),
  };
}
