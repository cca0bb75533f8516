import Database from '../../sqlite/driver.js';
import { closeQuietly, openWalGuard } from '../../sqlite/guard-connection.js';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import type { Artifact } from '../../purge/artifact.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { detectWalState } from '../../sqlite/wal-state.js';
import { HermesGraph } from './hermes-conversation.js';
import { hermesLayout } from './hermes-layout.js';
import { conversationIds } from './hermes-rows.js';
import { sessionRows } from './hermes-sessions.js';

/** How long a delete waits for a live Hermes writer's lock before giving up (the rows then stay and are residual). */
const BUSY_TIMEOUT_MS = 2_000;

/**
 * What a row purge of one `state.db` did: the rows deleted, the ids they named, and why nothing was deleted when so.
 * @public
 */
export interface HermesRowPurge {
  /** One record per column, summed over the conversation's ids. */
  deleted: Extract<Artifact, { kind: 'rows' }>[];
  /** The ids whose rows were deleted (the chain and its children), as stored. */
  ids: string[];
  /** Why no row was deleted (a refusal, a busy writer, a failure), when so. */
  refused?: string;
  /** True when the database's `-wal` was kept (a live or crashed writer): it may still hold the deleted text. */
  walKept: boolean;
}

function inList(column: string): string {
  return `${quoteIdent(column)} IN (SELECT value FROM json_each(?))`;
}

function deleteRows(db: Database.Database, label: string, id: string, remembered: readonly string[]): Omit<HermesRowPurge, 'walKept'> {
  db.pragma('foreign_keys = ON');
  db.pragma('secure_delete = ON');
  db.exec('BEGIN IMMEDIATE');
  try {
    // Checked again under the write lock: the layout decides what may be deleted.
    const layout = hermesLayout(db);
    if (layout.kind !== 'known') {
      db.exec('ROLLBACK');
      return { deleted: [], ids: [], refused: `unknown layout: ${layout.reason}` };
    }
    const graph = new HermesGraph(sessionRows(db, layout.sessions));
    const found = conversationIds(graph, id, remembered);
    const ids = found.ids;
    const list = JSON.stringify(ids);
    // Parents and children go in one statement: foreign keys are checked at COMMIT, and a failure rolls everything back.
    db.pragma('defer_foreign_keys = ON');
    const deleted: Extract<Artifact, { kind: 'rows' }>[] = [];
    const s = layout.sessions;
    const orphans = JSON.stringify(found.conversation?.orphans ?? []);
    if (s.parent !== undefined && orphans !== '[]') {
      db.prepare(`UPDATE ${quoteIdent(s.table)} SET ${quoteIdent(s.parent)} = NULL WHERE ${inList(s.id)}`).run(orphans);
    }
    // Child tables first (messages before sessions: the FTS delete triggers look their session up), `sessions.id` last.
    for (const { table, column } of layout.targets) {
      const n = db.prepare(`DELETE FROM ${quoteIdent(table)} WHERE ${inList(column)}`).run(list).changes;
      if (n > 0) deleted.push({ kind: 'rows', db: label, table, column, count: n });
    }
    // An FTS5 delete leaves the old segments (and their terms) until a merge: 'optimize' rewrites them without the rows.
    if (deleted.length > 0) for (const fts of layout.fts) db.prepare(`INSERT INTO ${quoteIdent(fts)}(${quoteIdent(fts)}) VALUES ('optimize')`).run();
    db.exec('COMMIT');
    return { deleted, ids };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Deletes the whole conversation of the canonical id from the shared `state.db` in one transaction — the compression
 * chain, its branch and delegate children (recursively), their `messages` (the FTS triggers firing), usage, locks and
 * leases — with foreign keys on and `secure_delete` on, never the file or its sidecars; only when the database is a
 * regular file confined to the Hermes root, {@link dbWriteRefusal} allows the write and the layout is known. When the
 * database had both sidecars (a live or crashed writer), a read-only guard connection outlives the writing one, so
 * closing it neither checkpoints nor removes them (`walKept`). Never throws: a refusal, a busy writer or a failure
 * deletes nothing (the rows stay residual) and says why.
 * @public
 */
export async function purgeHermesRows(fs: FileSystemPort, root: string, dbPath: string, id: string, remembered: readonly string[] = []): Promise<HermesRowPurge> {
  let writer: Database.Database | undefined;
  let guard: Database.Database | undefined;
  let walKept = false;
  try {
    const check = await confinedCheck(fs, root, dbPath);
    if (check.kind !== 'ok' || check.leaf !== 'file') return { deleted: [], ids: [], refused: `${dbPath} is not a regular file inside ${root}`, walKept };
    const refusal = await dbWriteRefusal(fs, check.path);
    if (refusal !== null) return { deleted: [], ids: [], refused: refusal, walKept };
    walKept = (await detectWalState(fs, check.path)) === 'leftover';
    writer = new Database(check.path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const done = deleteRows(writer, dbPath, id, remembered);
    if (walKept) guard = openWalGuard(check.path);
    return { ...done, walKept };
  } catch (err) {
    return { deleted: [], ids: [], refused: `the rows could not be deleted: ${describeError(err)}`, walKept };
  } finally {
    closeQuietly(writer);
    closeQuietly(guard);
  }
}


