import type { Artifact } from '../../purge/artifact.js';
import Database from '../../sqlite/driver.js';
import { quoteIdent as q, tableColumns, tableNames } from '../../sqlite/schema.js';
import { secureCheckpoint } from '../../sqlite/secure-checkpoint.js';

/**
 * The 1.x tables holding a session's rows and the column naming it, in deletion order: what hangs off a session first,
 * the `session` row (which ties the rest to the conversation) last. Cascades fire only with `foreign_keys=ON`, so every
 * table is deleted from explicitly.
 * @public
 */
export const OPENCODE_V1_TABLES: ReadonlyArray<readonly [table: string, column: string]> = [
  ['part', 'session_id'],
  ['message', 'session_id'],
  ['session_message', 'session_id'],
  ['session_input', 'session_id'],
  ['session_context_epoch', 'session_id'],
  ['session_share', 'session_id'],
  ['todo', 'session_id'],
  ['event', 'aggregate_id'],
  ['event_sequence', 'aggregate_id'],
  ['session', 'id'],
];

/** How long a delete waits for another writer (OpenCode's background service) to let go. */
const BUSY_TIMEOUT_MS = 5_000;

function find(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted);
}

/**
 * Deletes, in one transaction, the 1.x rows of the sessions `ids` (a conversation and its child sessions; children are
 * deleted before the parent); returns the rows deleted, one `rows` artifact per table and column. The only read-write open
 * of an OpenCode database, run by a purge alone; throws when the database cannot be written (nothing is then deleted). The
 * connection sets `secure_delete` and then asks for a truncating checkpoint; when the WAL stays busy (a live OpenCode), a
 * line saying it still holds the deleted text is pushed to `notes`.
 * @public
 */
export function deleteOpencodeV1Rows(dbPath: string, ids: readonly string[], notes: string[] = []): Artifact[] {
  const db = new Database(dbPath, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    // Zero what is deleted: otherwise the freed pages keep the prompts readable to a byte grep of the file.
    db.pragma('secure_delete = ON');
    // better-sqlite3 turns foreign keys on: cascades would delete rows of tables not listed here, unreported.
    db.pragma('foreign_keys = OFF');
    const tables = tableNames(db);
    const targets: Array<[string, string]> = [];
    for (const [table, column] of OPENCODE_V1_TABLES) {
      const t = find(tables, table);
      const c = t === undefined ? undefined : find(tableColumns(db, t), column);
      if (t !== undefined && c !== undefined) targets.push([t, c]);
    }
    const message = find(tables, 'message');
    const part = find(tables, 'part');
    const partByMessage =
      message !== undefined && part !== undefined && find(tableColumns(db, part), 'message_id') !== undefined && find(tableColumns(db, message), 'id') !== undefined;
    const counts = new Map<string, { table: string; column: string; count: number }>();
    const add = (table: string, column: string, n: number): void => {
      const key = `${table}.${column}`;
      if (n > 0) counts.set(key, { table, column, count: (counts.get(key)?.count ?? 0) + n });
    };
    // Children first, the conversation itself last.
    const order = [...ids.slice(1).reverse(), ...ids.slice(0, 1)];
    db.transaction(() => {
      for (const id of order) {
        for (const [t, c] of targets) {
          if (t === message && partByMessage) {
            // A part left without a matching session_id still belongs to the session through its message.
            const sql = `DELETE FROM ${q(part as string)} WHERE message_id IN (SELECT id FROM ${q(message)} WHERE session_id = ?)`;
            add(part as string, 'message_id', db.prepare(sql).run(id).changes);
          }
          add(t, c, db.prepare(`DELETE FROM ${q(t)} WHERE ${q(c)} = ?`).run(id).changes);
        }
      }
    })();
    if (counts.size > 0) notes.push(...secureCheckpoint(db, dbPath));
    return [...counts.values()].map((r) => ({ kind: 'rows' as const, db: dbPath, ...r }));
  } finally {
    db.close();
  }
}
