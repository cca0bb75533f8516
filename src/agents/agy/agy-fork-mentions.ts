import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact } from '../../purge/artifact.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { tableNames } from '../../sqlite/schema.js';
import { isAgySqliteFile } from '../common/read-text.js';
import { type AgyPaths, agyDbPath } from './agy-paths.js';
import type { AgyConversation } from './agy-survey.js';

// The rows of one conversation's `parent_references` whose reference bytes name the id (a fork's FORK reference).
async function referencesIn(fs: FileSystemPort, db: string, id: string): Promise<number> {
  try {
    if (!(await isAgySqliteFile(fs, db))) return 0;
    return await withReadonlyDb(db, { fs }, (h) => {
      if (!tableNames(h.db).includes('parent_references')) return 0;
      return h.db.prepare('SELECT count(*) FROM parent_references WHERE instr(CAST(data AS BLOB), ?) > 0').pluck().get(Buffer.from(id, 'utf8')) as number;
    });
  } catch {
    return 0;
  }
}

/**
 * Other conversations' databases whose `parent_references` still name the id (a `/fork` of it keeps a reference to its
 * source): another conversation's record, never changed by this id's purge, so a mention. Read-only. Never throws.
 * @public
 */
export async function agyForkMentions(fs: FileSystemPort, p: AgyPaths, id: string, all: readonly AgyConversation[]): Promise<Artifact[]> {
  const out: Artifact[] = [];
  for (const c of all) {
    if (c.id === id || c.cli === null) continue;
    const db = agyDbPath(p, c.id);
    const count = await referencesIn(fs, db, id);
    if (count > 0) out.push({ kind: 'rows', db, table: 'parent_references', column: 'data', count });
  }
  return out;
}
