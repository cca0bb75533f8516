import type Database from 'better-sqlite3';
import type { OpencodeLayout } from './opencode-layout.js';
import { sessionRows } from './opencode-sessions.js';

/**
 * One canonical session id of a batch and the spellings of its workspace ({@link sessionsVerified}).
 * @public
 */
export interface SessionQueryOf {
  /** The canonical session id. */
  id: string;
  /** The workspace as given and its realpath (empty: never verified). */
  dirs: readonly string[];
}

/**
 * OpenCode's `verifyArtifact` (`verify` mode) for many ids on one open database with its layout probed once, in order:
 * a top-level session row of the id whose directory is its workspace (a child session never verifies). Never throws: an
 * id whose read fails is false.
 * @public
 */
export function sessionsVerified(db: Database.Database, layout: OpencodeLayout, queries: readonly SessionQueryOf[]): boolean[] {
  return queries.map((qy) => {
    if (qy.dirs.length === 0) return false;
    try {
      const rows = sessionRows(db, layout, qy.id);
      return rows.length > 0 && rows.every((r) => r.parent === null) && rows.some((r) => qy.dirs.includes(r.directory));
    } catch {
      return false;
    }
  });
}
