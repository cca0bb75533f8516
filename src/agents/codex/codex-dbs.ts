import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { CodexHome } from './codex-home.js';

/**
 * One SQLite file of a Codex home: its directory (the root its removal and writes stay in) and whether it is a state DB.
 * @public
 */
export interface CodexDb {
  root: string;
  path: string;
  /** `state.sqlite` or `state_<N>.sqlite`: holds `threads`. */
  state: boolean;
}

const SQLITE = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.sqlite$/;
const STATE = /^state(_\d+)?\.sqlite$/;

async function isFile(fs: FileSystemPort, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).kind === 'file';
  } catch {
    return false;
  }
}

/**
 * The Codex databases (`state_5.sqlite`, `thread_history_1.sqlite`, `logs_2.sqlite`, …) in the home's database
 * directories, the other databases first and the state databases last (the `threads` row is what ties the rest to a
 * conversation, so it goes last).
 * @public
 */
export async function codexDbs(fs: FileSystemPort, home: CodexHome): Promise<CodexDb[]> {
  const found: CodexDb[] = [];
  for (const dir of home.dbDirs) {
    let entries;
    try {
      entries = await fs.readdir(dir);
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!SQLITE.test(e.name)) continue;
      const path = join(dir, e.name);
      if (e.kind === 'file' || (e.kind === 'symlink' && (await isFile(fs, path)))) found.push({ root: dir, path, state: STATE.test(e.name) });
    }
  }
  return [...found.filter((d) => !d.state), ...found.filter((d) => d.state)];
}
