import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import type { CodexDb } from './codex-dbs.js';
import { stateLayout, type StateLayout } from './state-layout.js';
import { threadColumns, type ThreadColumns } from './thread-columns.js';
import { threadsById, type ThreadRow } from './thread-query.js';
import { describeError } from '../../errors.js';

/**
 * What one read-only look at a Codex database found: its thread columns, for a state DB its layout and the `threads`
 * rows of the id asked about; or why it could not be read.
 * @public
 */
export type DbInspection =
  | { db: CodexDb; ok: true; columns: ThreadColumns; layout: StateLayout | null; rows: ThreadRow[] }
  | { db: CodexDb; ok: false; reason: string };

function reason(err: unknown): string {
  return describeError(err);
}

/**
 * Reads a database's schema (and, for a state DB of a known layout, the `threads` rows of `id`) through the read-only
 * opener; never throws.
 * @public
 */
export async function inspectDb(fs: FileSystemPort, db: CodexDb, id: string | null): Promise<DbInspection> {
  try {
    return await withReadonlyDb(db.path, { fs }, ({ db: conn }) => {
      const layout = db.state ? stateLayout(conn) : null;
      const rows = layout?.kind === 'known' && id !== null ? threadsById(conn, layout, id) : [];
      return { db, ok: true as const, columns: threadColumns(conn), layout, rows };
    });
  } catch (err) {
    return { db, ok: false, reason: reason(err) };
  }
}
