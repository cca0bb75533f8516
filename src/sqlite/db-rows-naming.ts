import type Database from 'better-sqlite3';
import { describeError, isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { Artifact, LeftArtifact } from '../purge/artifact.js';
import { quoteIdent, tableColumns, tableNames } from './schema.js';
import { checkDbRowsNaming } from '../validation/low-level-args.js';

/**
 * A table whose rows are keyed by the id: a bare name means its `id` column.
 * @public
 */
export type IdTable = string | { readonly table: string; readonly column: string };

/**
 * Options of {@link dbRowsNaming}.
 * @public
 */
export interface DbRowsNamingOptions {
  /** Used to look at the file and its sidecars (the database is never opened for writing). */
  fs: FileSystemPort;
}

function reason(err: unknown): string {
  return describeError(err);
}

function findName(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted.toLowerCase());
}

// Pairs to count: the id tables first (in the order given), then every table having a named column.
function targets(db: Database.Database, columns: readonly string[], idTables: readonly IdTable[]): Array<[string, string]> {
  const tables = tableNames(db);
  const colsOf = new Map<string, string[]>();
  const cols = (t: string): string[] => {
    let c = colsOf.get(t);
    if (c === undefined) colsOf.set(t, (c = tableColumns(db, t)));
    return c;
  };
  const pairs: Array<[string, string]> = [];
  const add = (t: string, c: string): void => {
    if (!pairs.some(([pt, pc]) => pt === t && pc === c)) pairs.push([t, c]);
  };
  for (const spec of idTables) {
    const { table, column } = typeof spec === 'string' ? { table: spec, column: 'id' } : spec;
    const t = findName(tables, table);
    const c = t === undefined ? undefined : findName(cols(t), column);
    if (t !== undefined && c !== undefined) add(t, c);
  }
  for (const t of tables) {
    for (const column of columns) {
      const c = findName(cols(t), column);
      if (c !== undefined) add(t, c);
    }
  }
  return pairs;
}

function naming(db: Database.Database, label: string, id: string, columns: readonly string[], idTables: readonly IdTable[]): Artifact[] {
  const out: Artifact[] = [];
  for (const [table, column] of targets(db, columns, idTables)) {
    try {
      const n = db.prepare(`SELECT count(*) FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} = ?`).pluck().get(id) as number;
      if (n > 0) out.push({ kind: 'rows', db: label, table, column, count: n });
    } catch (err) {
      out.push(unreadable(label, `${table}.${column}: unreadable: ${reason(err)}`));
    }
  }
  return out;
}

function unreadable(dbPath: string, why: string): LeftArtifact {
  return { kind: 'file', path: dbPath, reason: why };
}

/**
 * Names the rows of a SQLite file that hold `id` — a `rows` artifact for each id table whose id column equals it and each
 * table having one of `columns` equal to it; a missing file gives `[]`, an unreadable one (or table) an entry with the
 * `reason` (`unreadable: …`) — the one kind of entry that carries a reason.
 * @example
 * ```ts
 * await dbRowsNaming(db, id, ['thread_id'], ['threads'], { fs }); // [{ kind: 'rows', db, table: 'threads', column: 'id', count: 1 }, …]
 * ```
 * @public
 */
export async function dbRowsNaming(
  dbPath: string,
  id: string,
  columns: readonly string[],
  idTables: readonly IdTable[],
  opts: DbRowsNamingOptions,
): Promise<Artifact[]> {
  checkDbRowsNaming([dbPath, id, columns, idTables, opts]);
  try {
    await opts.fs.stat(dbPath);
  } catch (err) {
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) return [];
    return [unreadable(dbPath, `unreadable: ${reason(err)}`)];
  }
  try {
    // The opener is loaded by the first call, not when @mam/core is imported.
    const { openReadonly } = await import('./open-readonly.js');
    const h = await openReadonly(dbPath, opts);
    try {
      return naming(h.db, dbPath, id, columns, idTables);
    } finally {
      await h.close();
    }
  } catch (err) {
    return [unreadable(dbPath, `unreadable: ${reason(err)}`)];
  }
}
