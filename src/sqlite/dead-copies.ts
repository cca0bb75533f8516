import type Database from 'better-sqlite3';
import { quoteIdent as q } from './schema.js';

// A writer that does not set `secure_delete` (OpenCode does not) leaves old copies of its rows in the unused space of
// pages that still hold other rows: the gap between a page's cell pointers and its cells, freed cells, a leaf that became
// an interior page. Deleting the rows later (even with secure_delete) never reaches those copies. SQLite offers no way to
// wipe one page's unused space; rebuilding the b-tree that owns it does: with secure_delete on, a cleared b-tree's pages are
// zeroed as they are freed and every page it is rebuilt on is zeroed before use. VACUUM would do it too, but it rewrites
// every page of every session (a full copy of the file through the WAL) and may renumber rowids: only the b-trees that
// hold a copy are rebuilt here, their live rows byte for byte the same.

/** The page size a SQLite file image records (bytes 16–17; 1 means 65536); 0 when the image is not SQLite. */
function pageSizeOf(image: Uint8Array): number {
  if (image.length < 100 || new TextDecoder().decode(image.subarray(0, 15)) !== 'SQLite format 3') return 0;
  const raw = (image[16]! << 8) | image[17]!;
  return raw === 1 ? 65_536 : raw;
}

/**
 * The page numbers (1-based) of a SQLite main-file image whose bytes contain any of `needles` (UTF-8); empty for an image
 * that is not SQLite.
 * @public
 */
export function pagesNaming(image: Uint8Array, needles: readonly string[]): number[] {
  const size = pageSizeOf(image);
  if (size === 0) return [];
  const buf = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  const pages = new Set<number>();
  for (const needle of needles) {
    const bytes = Buffer.from(needle, 'utf8');
    if (bytes.length === 0) continue;
    for (let at = buf.indexOf(bytes); at >= 0; at = buf.indexOf(bytes, at + 1)) {
      pages.add(Math.floor(at / size) + 1);
      // A copy that straddles two pages names both.
      pages.add(Math.floor((at + bytes.length - 1) / size) + 1);
    }
  }
  return [...pages].sort((a, b) => a - b);
}

/**
 * What {@link rebuildTreesOnPages} did: the b-trees rebuilt, and why any page could not be wiped (a free page, a virtual
 * table, a table with triggers, SQLite's own schema).
 * @public
 */
export interface DeadCopyRebuild {
  /** The tables and indexes rebuilt. */
  rebuilt: string[];
  /** One line per page set that could not be wiped, with the reason. */
  skipped: string[];
}

/**
 * Options of {@link rebuildTreesOnPages}.
 * @public
 */
export interface RebuildOptions {
  /** Rebuild a table with triggers too: its triggers are dropped and created again from their SQL in the same transaction, so none fires (default: such a table is skipped). */
  suspendTriggers?: boolean;
}

/**
 * Zeroes every free page of the database on a connection that has `secure_delete` on, in one transaction: a scratch table
 * takes the free pages (filled with zeros) and is dropped again, each page zeroed as it is freed. Old copies a writer
 * without `secure_delete` left on pages it freed go with them; live rows are not touched. Returns how many pages were free.
 * @public
 */
export function scrubFreePages(db: Database.Database): number {
  const before = db.pragma('freelist_count', { simple: true }) as number;
  if (before === 0) return 0;
  const size = db.pragma('page_size', { simple: true }) as number;
  db.transaction(() => {
    db.exec('DROP TABLE IF EXISTS main.mam_scrub');
    db.exec('CREATE TABLE main.mam_scrub (b BLOB)');
    const fill = db.prepare('INSERT INTO main.mam_scrub (b) VALUES (zeroblob(?))');
    // A zero blob spans about one overflow page per (page size - 4) bytes; at most 1024 pages a row keeps memory bounded,
    // and each row stays a little short of what is left so the file grows by a page or two at most.
    for (let left = before; left > 0; ) {
      fill.run(Math.min(left, 1024) * (size - 8));
      const now = db.pragma('freelist_count', { simple: true }) as number;
      if (now >= left) break;
      left = now;
    }
    db.exec('DROP TABLE main.mam_scrub');
  })();
  return before;
}

interface SchemaEntry {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

function rebuildTable(db: Database.Database, t: SchemaEntry, suspendTriggers: boolean): string | null {
  if (t.sql === null || /^\s*CREATE\s+VIRTUAL/i.test(t.sql)) return 'a virtual table';
  const triggers = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? ORDER BY rowid").all(t.name) as Array<{ name: string; sql: string }>;
  if (triggers.length > 0 && !suspendTriggers) return 'a table with triggers (a rebuild would fire them)';
  // Dropped and created again from their own SQL inside the rebuild's transaction: no trigger fires, none is lost.
  for (const tr of triggers) db.exec(`DROP TRIGGER main.${q(tr.name)}`);
  const why = copyBack(db, t);
  for (const tr of triggers) db.exec(tr.sql);
  return why;
}

function copyBack(db: Database.Database, t: SchemaEntry): string | null {
  const cols = (db.prepare(`PRAGMA table_xinfo(${q(t.name)})`).all() as Array<{ name: string; hidden: number }>).filter((c) => c.hidden === 0).map((c) => c.name);
  const rowid = !/\bWITHOUT\s+ROWID\b/i.test(t.sql ?? '');
  if (cols.some((c) => ['rowid', '_rowid_', 'oid', 'mam_rowid'].includes(c.toLowerCase()))) return 'a table with a column named like its rowid';
  const list = cols.map(q).join(', ');
  db.exec('DROP TABLE IF EXISTS temp.mam_rebuild');
  db.exec(`CREATE TEMP TABLE mam_rebuild AS SELECT ${rowid ? 'rowid AS mam_rowid, ' : ''}${list} FROM main.${q(t.name)}`);
  // No WHERE and no triggers: SQLite clears the whole b-tree (and its indexes) at once, zeroing each page it frees.
  db.exec(`DELETE FROM main.${q(t.name)}`);
  db.exec(`INSERT INTO main.${q(t.name)} (${rowid ? 'rowid, ' : ''}${list}) SELECT ${rowid ? 'mam_rowid, ' : ''}${list} FROM temp.mam_rebuild${rowid ? ' ORDER BY mam_rowid' : ''}`);
  db.exec('DROP TABLE temp.mam_rebuild');
  return null;
}

/**
 * Rebuilds, in one transaction on a read-write connection that has `secure_delete` on, every b-tree owning one of `pages`
 * (an index by `REINDEX`, a table by copying its rows out, clearing it and putting them back with their rowids, foreign
 * keys off meanwhile so no ON DELETE action fires), so no
 * unused byte of those pages keeps an old copy; the rows themselves are unchanged. A free page, a virtual table, a table
 * with triggers and SQLite's own schema table are skipped and said so. Throws when the transaction fails (it rolls back).
 * @public
 */
export function rebuildTreesOnPages(db: Database.Database, pages: readonly number[], opts: RebuildOptions = {}): DeadCopyRebuild {
  if (pages.length === 0) return { rebuilt: [], skipped: [] };
  const wanted = new Set(pages);
  const owners = new Map<number, string>();
  for (const r of db.prepare('SELECT name, pageno FROM dbstat').all() as Array<{ name: string; pageno: number }>) if (wanted.has(r.pageno)) owners.set(r.pageno, r.name);
  const free = pages.filter((p) => !owners.has(p));
  const schema = new Map((db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema').all() as SchemaEntry[]).map((e) => [e.name, e]));
  const tables = new Set<string>();
  const indexes = new Set<string>();
  const skipped: string[] = free.length > 0 ? [`${free.length} free page(s) (no b-tree to rebuild)`] : [];
  for (const name of new Set(owners.values())) {
    const e = schema.get(name);
    if (e === undefined) skipped.push(`${name} (SQLite's own schema)`);
    else if (e.type === 'index') indexes.add(name);
    else tables.add(name);
  }
  const rebuilt: string[] = [];
  db.pragma('temp_store = MEMORY');
  // Clearing a table with foreign keys on would fire ON DELETE actions in other tables (a cascade deletes their rows for
  // good): the rebuild runs with them off, whatever the caller's connection had, and puts the setting back.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  if (foreignKeys !== 0) db.pragma('foreign_keys = OFF');
  try {
    rebuildAll(db, schema, tables, indexes, rebuilt, skipped, opts.suspendTriggers === true);
  } finally {
    if (foreignKeys !== 0) db.pragma('foreign_keys = ON');
  }
  return { rebuilt, skipped };
}

function rebuildAll(db: Database.Database, schema: Map<string, SchemaEntry>, tables: Set<string>, indexes: Set<string>, rebuilt: string[], skipped: string[], suspend: boolean): void {
  db.transaction(() => {
    for (const name of tables) {
      const why = rebuildTable(db, schema.get(name)!, suspend);
      if (why === null) rebuilt.push(name);
      else skipped.push(`${name} (${why})`);
    }
    for (const name of indexes) {
      // A rebuilt table rebuilt its indexes with it.
      if (rebuilt.includes(schema.get(name)!.tbl_name)) continue;
      db.exec(`REINDEX main.${q(name)}`);
      rebuilt.push(name);
    }
  })();
}
