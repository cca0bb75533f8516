import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ClaudeLocations } from './claude-locations.js';

/**
 * True when a transcript `<key>/<id>.jsonl` of the (canonical) id is under any projects root — a readdir of each root and
 * one lstat per key dir, the cheapest proof that Claude has the conversation; false says only that no transcript is there.
 * @public
 */
export async function claudeTranscriptExists(fs: FileSystemPort, loc: ClaudeLocations, id: string): Promise<boolean> {
  for (const root of loc.projects) {
    const keys = (await fs.readdir(root).catch(() => [])).filter((e) => e.kind === 'dir' || e.kind === 'symlink');
    const hits = await Promise.all(keys.map((k) => fs.lstat(join(root, k.name, `${id}.jsonl`)).then(() => true, () => false)));
    if (hits.includes(true)) return true;
  }
  return false;
}
