import type { FileSystemPort } from '../../ports/fs.js';
import { type Artifact, hasReason, type LeftArtifact } from '../../purge/artifact.js';
import { dbRowsNaming } from '../../sqlite/db-rows-naming.js';
import type { CodexSurvey } from './codex-survey.js';
import type { DbInspection } from './inspect-db.js';
import type { ThreadColumn } from './thread-columns.js';

/**
 * The rows of the given thread columns that name the id (kind `rows`), split from the notes about databases or tables
 * that could not be read (a note alone is no evidence the conversation is there).
 * @public
 */
export async function rowsNaming(
  fs: FileSystemPort,
  s: Pick<CodexSurvey, 'dbs'>,
  id: string,
  pick: (i: Extract<DbInspection, { ok: true }>) => readonly ThreadColumn[],
): Promise<{ rows: Artifact[]; notes: LeftArtifact[] }> {
  const out = { rows: [] as Artifact[], notes: [] as LeftArtifact[] };
  for (const i of s.dbs) {
    if (!i.ok) {
      // An unreadable state DB is already a refusal line.
      if (!i.db.state) out.notes.push({ kind: 'file', path: i.db.path, reason: 'unreadable' });
      continue;
    }
    const columns = pick(i);
    if (columns.length === 0) continue;
    for (const a of await dbRowsNaming(i.db.path, id, [], columns, { fs })) {
      if (hasReason(a)) out.notes.push(a);
      else out.rows.push(a);
    }
  }
  return out;
}
