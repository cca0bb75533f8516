import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { dbRowsNaming } from '../../sqlite/db-rows-naming.js';
import { quoteIdent, tableColumns, tableNames } from '../../sqlite/schema.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { mapLimit } from '../../map-limit.js';
import { describeError } from '../../errors.js';
import { type Artifact, hasReason, type LeftArtifact } from '../../purge/artifact.js';

// Claude Code 2.x keeps no database. A SQLite file at the top of the config root (a pre-JSONL store, a future one) is a layout
// this adapter does not know: it is read (read-only, WAL-aware) to report and discover what it can, and never written.
const STORE_NAME = /\.(db|sqlite|sqlite3)$/i;
const SQLITE_MAGIC = 'SQLite format 3\0';
const SESSION_COLUMNS = ['session_id', 'sessionId'] as const;
const TIME_COLUMNS = ['timestamp', 'created_at', 'createdAt', 'started_at', 'startedAt'] as const;

/**
 * What an unknown store says about one id: rows naming it (`<db> (<table>.<col>: N rows)`) and stores that could not be read.
 * @public
 */
export interface StoreFindings {
  /** The stores having at least one such row. */
  stores: string[];
  /** The rows naming the id (kind `rows`). */
  rows: Artifact[];
  /** The stores (or tables) that could not be read, with the reason. */
  unreadable: LeftArtifact[];
}

/**
 * A conversation an unknown store records for a workspace (from a table having a session-id column and a `cwd` column).
 * @public
 */
export interface StoreConversation {
  id: string;
  startMs: number | null;
}

/**
 * The SQLite files at the top of the config root (checked by their header, never opened for it). Never rejects.
 * @public
 */
export async function unknownStores(fs: FileSystemPort, config: string): Promise<string[]> {
  const entries = await fs.readdir(config).catch(() => []);
  const named = entries.filter((e) => e.kind === 'file' && STORE_NAME.test(e.name)).map((e) => join(config, e.name));
  const magic = await mapLimit(named, 8, (p) =>
    fs.readHead(p, 16).then(
      (b) => new TextDecoder('latin1').decode(b) === SQLITE_MAGIC,
      () => false,
    ),
  );
  return named.filter((_, i) => magic[i] === true).sort();
}

/**
 * The rows of the stores whose session-id column equals the id, and the stores that could not be read. Never rejects.
 * @public
 */
export async function storeFindings(fs: FileSystemPort, stores: readonly string[], id: string): Promise<StoreFindings> {
  const out: StoreFindings = { stores: [], rows: [], unreadable: [] };
  for (const db of stores) {
    const lines = await dbRowsNaming(db, id, SESSION_COLUMNS, [], { fs }).catch((err: unknown): Artifact[] => [
      { kind: 'file', path: db, reason: `unreadable: ${describeError(err)}` } as LeftArtifact,
    ]);
    const rows = lines.filter((a) => !hasReason(a));
    if (rows.length > 0) out.stores.push(db);
    out.rows.push(...rows);
    out.unreadable.push(...lines.filter(hasReason));
  }
  return out;
}

function toMs(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value > 1e11 ? value : value * 1000;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

function pick(cols: readonly string[], wanted: readonly string[]): string | undefined {
  return wanted.map((w) => cols.find((c) => c.toLowerCase() === w.toLowerCase())).find((c) => c !== undefined);
}

/**
 * The conversations the stores record for any of `cwds`, with their earliest time when a time column exists; an unreadable
 * store gives none. Never rejects.
 * @public
 */
export async function storeConversations(fs: FileSystemPort, stores: readonly string[], cwds: readonly string[]): Promise<StoreConversation[]> {
  const found: StoreConversation[] = [];
  for (const db of stores) {
    try {
      await withReadonlyDb(db, { fs }, (h) => {
        for (const table of tableNames(h.db)) {
          const cols = tableColumns(h.db, table);
          const sid = pick(cols, SESSION_COLUMNS);
          const cwd = pick(cols, ['cwd']);
          if (sid === undefined || cwd === undefined) continue;
          const time = pick(cols, TIME_COLUMNS);
          const marks = cwds.map(() => '?').join(', ');
          const sql = `SELECT ${quoteIdent(sid)} AS id, ${time === undefined ? 'NULL' : `MIN(${quoteIdent(time)})`} AS t FROM ${quoteIdent(table)} WHERE ${quoteIdent(cwd)} IN (${marks}) GROUP BY ${quoteIdent(sid)}`;
          for (const row of h.db.prepare(sql).all(...cwds) as Array<{ id: unknown; t: unknown }>) {
            if (typeof row.id === 'string') found.push({ id: row.id, startMs: toMs(row.t) });
          }
        }
      });
    } catch {
      // An unreadable store discovers nothing; a purge still refuses while it cannot be read (see storeFindings).
    }
  }
  return found;
}
