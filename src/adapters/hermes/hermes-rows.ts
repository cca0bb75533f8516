import type Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { type HermesTarget, hermesIdLikeColumns, hermesLayout } from './hermes-layout.js';
import { describeError } from '../../errors.js';
import type { Artifact } from '../../purge/artifact.js';

/**
 * The refusal residual names on a `state.db` whose layout this adapter does not know.
 * @public
 */
export const HERMES_UNKNOWN_LAYOUT = 'unknown layout: refusing to purge';

/**
 * The rows of `state.db` naming one conversation, read without touching the database's directory.
 * @public
 */
export interface HermesRows {
  /** One `rows` artifact per column that names the id. */
  rows: Artifact[];
  /** Why a purge refuses this database (its layout is not known), when it does. */
  refusal?: string;
  /** Why the database could not be read, when it could not. */
  unreadable?: string;
}

/**
 * Counts the rows whose column equals the id in any case (a uuid is compared lower-cased), one `rows` artifact per column.
 * @public
 */
export function countNaming(db: Database.Database, label: string, id: string, targets: readonly HermesTarget[]): Artifact[] {
  const out: Artifact[] = [];
  for (const { table, column } of targets) {
    const n = db.prepare(`SELECT count(*) FROM ${quoteIdent(table)} WHERE lower(${quoteIdent(column)}) = ?`).pluck().get(id) as number;
    if (n > 0) out.push({ kind: 'rows', db: label, table, column, count: n });
  }
  return out;
}

/**
 * The rows naming the canonical id: on the known layout those a purge deletes (`sessions.id` and every `session_id`);
 * on an unknown one every id-like column that names it, with the refusal. A missing database names nothing. Never throws.
 * @public
 */
export async function hermesRowsNaming(fs: FileSystemPort, dbPath: string, id: string): Promise<HermesRows> {
  try {
    await fs.stat(dbPath);
  } catch {
    return { rows: [] };
  }
  try {
    return await withReadonlyDb(dbPath, { fs }, (h): HermesRows => {
      const layout = hermesLayout(h.db);
      if (layout.kind === 'known') return { rows: countNaming(h.db, dbPath, id, layout.targets) };
      return { rows: countNaming(h.db, dbPath, id, hermesIdLikeColumns(h.db)), refusal: layout.reason };
    });
  } catch (err) {
    return { rows: [], unreadable: describeError(err) };
  }
}
