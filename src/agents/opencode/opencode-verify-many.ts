import type Database from 'better-sqlite3';
import type { OpencodeLayout } from './opencode-layout.js';
import { type OpencodeSessionRow, sessionRows, sessionRowsOf } from './opencode-sessions.js';

/**
 * One canonical session id of a batch and its workspace as given ({@link sessionVerdicts}).
 * @public
 */
export interface SessionQueryOf {
  /** The canonical session id. */
  id: string;
  /** The workspace as given, normalised without trailing separators (null: never verified). */
  given: string | null;
}

/**
 * What the database says of one query: verified, not, or — when the id's top-level rows name other directories than the
 * workspace as given — those directories, to be compared with the workspace's realpath.
 * @public
 */
export type SessionVerdict = boolean | { readonly dirs: readonly string[] };

/**
 * OpenCode's `verifyArtifact` (`verify` mode) for many ids on one open database with its layout probed once, in order:
 * a top-level session row of the id whose directory is its workspace (a child session never verifies). The workspace's
 * realpath is needed only when no row names it as given, so that case comes back as the rows' directories. Never throws:
 * an id whose read fails is false.
 * @public
 */
export function sessionVerdicts(db: Database.Database, layout: OpencodeLayout, queries: readonly SessionQueryOf[]): SessionVerdict[] {
  let rowsOf: ((id: string) => OpencodeSessionRow[]) | null = null;
  const ids = queries.filter((qy) => qy.given !== null).map((qy) => qy.id);
  try {
    // One statement per table for a batch (one id: its own lookup by id).
    if (new Set(ids).size > 1) {
      const found = sessionRowsOf(db, layout, ids);
      rowsOf = (id) => found.get(id) ?? [];
    }
  } catch {
    // A SQLite without json_each, or a read that failed: each id on its own, as before (a failed one false).
  }
  return queries.map((qy) => {
    if (qy.given === null) return false;
    try {
      const rows = rowsOf === null ? sessionRows(db, layout, qy.id) : rowsOf(qy.id);
      if (rows.length === 0 || rows.some((r) => r.parent !== null)) return false;
      return rows.some((r) => r.directory === qy.given) ? true : { dirs: rows.map((r) => r.directory) };
    } catch {
      return false;
    }
  });
}
