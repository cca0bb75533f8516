import type { FileSystemPort } from '../../ports/fs.js';
import { type Artifact, hasReason, type LeftArtifact } from '../../purge/artifact.js';
import { dbRowsNaming } from '../../sqlite/db-rows-naming.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { describeError } from '../../errors.js';
import type { CodexSurvey } from './codex-survey.js';
import type { DbInspection } from './inspect-db.js';
import { rolloutPathPattern } from './rollout-name.js';
import type { ThreadColumn } from './thread-columns.js';

// Rows whose rollout-path column names the id's rollout file (the id is inside the value).
async function pathRows(fs: FileSystemPort, path: string, id: string, columns: readonly ThreadColumn[]): Promise<Artifact[]> {
  if (columns.length === 0) return [];
  try {
    return await withReadonlyDb(path, { fs }, ({ db }) =>
      columns.flatMap(({ table, column }): Artifact[] => {
        const n = db.prepare(`SELECT count(*) FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} LIKE ?`).pluck().get(rolloutPathPattern(id)) as number;
        return n > 0 ? [{ kind: 'rows', db: path, table, column, count: n }] : [];
      }),
    );
  } catch (err) {
    return [{ kind: 'file', path, reason: `unreadable: ${describeError(err)}` } as LeftArtifact];
  }
}

/**
 * The rows of the given thread columns that name the id (kind `rows`), split from the notes about databases or tables
 * that could not be read (a note alone is no evidence the conversation is there). With `withPaths`, rows of rollout-path
 * columns naming the id's rollout count too (they are the thread's own).
 * @public
 */
export async function rowsNaming(
  fs: FileSystemPort,
  s: Pick<CodexSurvey, 'dbs'>,
  id: string,
  pick: (i: Extract<DbInspection, { ok: true }>) => readonly ThreadColumn[],
  withPaths = false,
): Promise<{ rows: Artifact[]; notes: LeftArtifact[] }> {
  const out = { rows: [] as Artifact[], notes: [] as LeftArtifact[] };
  for (const i of s.dbs) {
    if (!i.ok) {
      // An unreadable state DB is already a refusal line.
      if (!i.db.state) out.notes.push({ kind: 'file', path: i.db.path, reason: 'unreadable' });
      continue;
    }
    const columns = pick(i);
    const paths = withPaths ? i.columns.rolloutPaths : [];
    if (columns.length === 0 && paths.length === 0) continue;
    const found = [...(columns.length === 0 ? [] : await dbRowsNaming(i.db.path, id, [], columns, { fs })), ...(await pathRows(fs, i.db.path, id, paths))];
    for (const a of found) {
      if (hasReason(a)) out.notes.push(a);
      else out.rows.push(a);
    }
  }
  return out;
}
