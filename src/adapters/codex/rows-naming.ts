import type { FileSystemPort } from '../../ports/fs.js';
import { dbRowsNaming } from '../../sqlite/db-rows-naming.js';
import type { CodexSurvey } from './codex-survey.js';
import type { DbInspection } from './inspect-db.js';
import type { ThreadColumn } from './thread-columns.js';

function unreadable(path: string, line: string): boolean {
  return line.startsWith(`${path} (unreadable`) || line.includes(': unreadable: ');
}

/**
 * The rows of the given thread columns that name the id, as `<db> (<table>.<col>: N rows)`, split from the notes about
 * databases or tables that could not be read (a note alone is no evidence the conversation is there).
 * @public
 */
export async function rowsNaming(
  fs: FileSystemPort,
  s: Pick<CodexSurvey, 'dbs'>,
  id: string,
  pick: (i: Extract<DbInspection, { ok: true }>) => readonly ThreadColumn[],
): Promise<{ rows: string[]; notes: string[] }> {
  const out = { rows: [] as string[], notes: [] as string[] };
  for (const i of s.dbs) {
    if (!i.ok) {
      // An unreadable state DB is already a refusal line.
      if (!i.db.state) out.notes.push(`${i.db.path} (unreadable)`);
      continue;
    }
    const columns = pick(i);
    if (columns.length === 0) continue;
    for (const line of await dbRowsNaming(i.db.path, id, [], columns, { fs })) (unreadable(i.db.path, line) ? out.notes : out.rows).push(line);
  }
  return out;
}
