import { join } from 'node:path';
import { isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { CodexHome } from './codex-home.js';
import { rolloutNameId } from './rollout-name.js';

/**
 * One rollout file found by name, with the root it was found under (`sessions/` or `archived_sessions/`).
 * @public
 */
export interface RolloutFile {
  root: string;
  path: string;
  /** The id its name carries (lower case). */
  id: string;
}

/**
 * What a scan of the rollout roots found: the files, and the directories it could not list.
 * @public
 */
export interface RolloutScan {
  files: RolloutFile[];
  unreadable: string[];
}

// sessions/YYYY/MM/DD/<file>: files sit three levels down; archived_sessions/<file> at the top. One level of slack each.
const MAX_DEPTH = 4;

async function isDir(fs: FileSystemPort, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).kind === 'dir';
  } catch {
    return false;
  }
}

async function walk(fs: FileSystemPort, root: string, dir: string, depth: number, want: string | undefined, out: RolloutScan): Promise<void> {
  let entries;
  try {
    // readdir follows a linked directory: what lies behind it is still found (and a purge then refuses to follow it).
    entries = await fs.readdir(dir);
  } catch (err) {
    if (dir !== root || !isPortError(err, 'NotFound')) out.unreadable.push(dir);
    return;
  }
  const dirs: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    const id = rolloutNameId(e.name);
    if (id !== null && e.kind !== 'dir') {
      if (want === undefined || id === want) out.files.push({ root, path, id });
    } else if (depth < MAX_DEPTH && (e.kind === 'dir' || (e.kind === 'symlink' && (await isDir(fs, path))))) {
      dirs.push(path);
    }
  }
  for (const d of dirs.sort()) await walk(fs, root, d, depth + 1, want, out);
}

/**
 * Lists the rollout files under `sessions/` and `archived_sessions/` by name only (no file is opened), all of them or
 * those of one canonical id; a root that does not exist is no error, any other unlistable directory is reported.
 * @public
 */
export async function scanRollouts(fs: FileSystemPort, home: CodexHome, want?: string): Promise<RolloutScan> {
  const out: RolloutScan = { files: [], unreadable: [] };
  for (const root of [home.sessions, home.archived]) await walk(fs, root, root, 0, want, out);
  return out;
}
