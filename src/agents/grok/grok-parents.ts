import { join } from 'node:path';
import { canonicalGrokId } from './grok-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import { grokBuckets } from './grok-session-dirs.js';
import { listDirOrNull } from '../common/read-regular.js';

const PARALLEL = 8;

/**
 * A session whose `subagents/<child>/` names a child: the parent's id and dir.
 * @public
 */
export interface GrokParent {
  /** The parent's id (its dir name). */
  id: string;
  /** The parent's session dir. */
  dir: string;
}

/**
 * The sessions, in any bucket, whose `subagents/<childId>/` dir exists (the only link grok keeps from a parent to a
 * subagent child). Links are not followed. Never throws.
 * @public
 */
export async function grokParents(fs: FileSystemPort, sessionsDir: string, childId: string): Promise<GrokParent[]> {
  const out: GrokParent[] = [];
  for (const b of await grokBuckets(fs, sessionsDir)) {
    if (b.link) continue;
    const names = ((await listDirOrNull(fs, b.path)) ?? []).filter((e) => e.kind === 'dir' && canonicalGrokId(e.name) === e.name);
    const hits = await mapLimit(names, PARALLEL, async (e) => {
      const dir = join(b.path, e.name);
      const kind = await fs.lstat(join(dir, 'subagents', childId)).then((s) => s.kind, () => null);
      return kind === 'dir' && e.name !== childId ? { id: e.name, dir } : null;
    });
    for (const h of hits) if (h !== null) out.push(h);
  }
  return out;
}
