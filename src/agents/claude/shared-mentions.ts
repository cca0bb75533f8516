import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ClaudeLocations } from './claude-locations.js';

const BACKUP_PREFIX = '.claude.json.backup';

/**
 * The files Claude Code shares between all conversations, which a purge never removes or rewrites: `<home>/.claude.json`
 * (or the config root's, under `CLAUDE_CONFIG_DIR`), its backups, `history.jsonl` and the plugin stores
 * `plugins/store/*.json`. Never rejects.
 * @public
 */
export async function sharedFiles(fs: FileSystemPort, loc: ClaudeLocations): Promise<string[]> {
  const backups = join(loc.config, 'backups');
  const store = join(loc.config, 'plugins', 'store');
  const [listed, stored] = await Promise.all([fs.readdir(backups).catch(() => []), fs.readdir(store).catch(() => [])]);
  const candidates = [
    join(loc.home, '.claude.json'),
    join(loc.home, BACKUP_PREFIX),
    join(loc.config, '.claude.json'),
    join(loc.config, '.config.json'),
    join(loc.config, 'history.jsonl'),
    ...listed
      .filter((e) => e.kind === 'file' && e.name.startsWith(BACKUP_PREFIX))
      .map((e) => join(backups, e.name))
      .sort(),
    // Plugins' key-value stores (2.1.332: e.g. `{"usage-rows-queued": "<sessionId> …"}`), shared by every conversation.
    ...stored
      .filter((e) => e.kind === 'file' && e.name.endsWith('.json'))
      .map((e) => join(store, e.name))
      .sort(),
  ];
  return [...new Set(candidates)];
}

/**
 * The shared files whose text names the id (either spelling); what cannot be read is not reported. Never rejects.
 * @public
 */
export async function sharedFilesNaming(fs: FileSystemPort, loc: ClaudeLocations, id: string): Promise<string[]> {
  const files = await sharedFiles(fs, loc);
  const upper = id.toUpperCase();
  const hits = await Promise.all(
    files.map(async (path) => {
      try {
        if ((await fs.lstat(path)).kind !== 'file') return false;
        const text = await fs.readText(path);
        return text.includes(id) || text.includes(upper);
      } catch {
        return false;
      }
    }),
  );
  return files.filter((_, i) => hits[i] === true);
}
