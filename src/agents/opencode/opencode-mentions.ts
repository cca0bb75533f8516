import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';

/**
 * The shared log files (`<data>/log/*.log`, never removed or rewritten) whose text names the id, sorted.
 * @public
 */
export async function opencodeLogMentions(fs: FileSystemPort, dataDir: string, id: string): Promise<string[]> {
  if (id === '') return [];
  const dir = join(dataDir, 'log');
  let entries;
  try {
    entries = await fs.readdir(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries.filter((x) => x.kind === 'file' && x.name.endsWith('.log')).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, e.name);
    try {
      if ((await fs.readText(path)).includes(id)) out.push(path);
    } catch {
      // An unreadable log cannot be said to name it.
    }
  }
  return out;
}
