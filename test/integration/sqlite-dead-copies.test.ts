// The dead-copy wipe of a purge (src/sqlite/dead-copies.ts) on real SQLite files: which pages name an id, what a rebuild
// wipes (tables with their rowids, indexes by REINDEX, WITHOUT ROWID tables) and what it leaves and says so (a table
// with triggers, a free page).
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pagesNaming, rebuildTreesOnPages } from '../../src/sqlite/dead-copies.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const ID = 'ses_TARGETxxxxxxxxxxxxxxxxxx';

// A table whose rows of ID were rewritten larger (old copies left behind, no secure_delete), then deleted with it on.
function withDeadCopies(schema: string, table = 't'): { path: string; db: Database.Database } {
  const dir = mkdtempSync(join(tmpdir(), 'mam-dead-'));
  dirs.push(dir);
  const path = join(dir, 'x.db');
  const w = new Database(path);
  w.pragma('journal_mode = WAL');
  w.exec(schema);
  const ins = w.prepare(`INSERT INTO ${table} (k, sid, data) VALUES (?, ?, ?)`);
  for (let i = 0; i < 200; i++) ins.run(`k${String(i).padStart(4, '0')}`, i % 2 === 0 ? ID : 'ses_other', `${'d'.repeat(100)} ${i % 2 === 0 ? ID : ''}`);
  for (let i = 0; i < 200; i += 2) w.prepare(`UPDATE ${table} SET data = ? WHERE k = ?`).run(`${'e'.repeat(300)} ${ID}`, `k${String(i).padStart(4, '0')}`);
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  const db = new Database(path);
  db.pragma('secure_delete = ON');
  db.prepare(`DELETE FROM ${table} WHERE sid = ?`).run(ID);
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { path, db };
}

const rows = (db: Database.Database, t = 't'): unknown[] => db.prepare(`SELECT * FROM ${t} ORDER BY k`).all();

describe('pagesNaming', () => {
  it('names every page a needle is on, both pages of one that straddles a boundary; nothing for a non-SQLite image', () => {
    const image = Buffer.alloc(3 * 512);
    Buffer.from('SQLite format 3\0').copy(image);
    image.writeUInt16BE(512, 16);
    Buffer.from(ID).copy(image, 512 + 100);
    Buffer.from(ID).copy(image, 1024 - 5);
    expect(pagesNaming(image, [ID])).toEqual([2, 3]);
    expect(pagesNaming(image, ['absent', ''])).toEqual([]);
    expect(pagesNaming(Buffer.from(`not sqlite ${ID}`), [ID])).toEqual([]);
  });
});

describe('rebuildTreesOnPages', () => {
  it('a rowid table and its index: rebuilt, no byte of the id left, rows and rowids the same, integrity ok', () => {
    const { path, db } = withDeadCopies('CREATE TABLE t (k TEXT PRIMARY KEY, sid TEXT, data TEXT); CREATE INDEX t_sid ON t(sid)');
    const pages = pagesNaming(readFileSync(path), [ID]);
    expect(pages.length).toBeGreaterThan(0);
    const before = db.prepare('SELECT rowid, * FROM t ORDER BY rowid').all();
    expect(rebuildTreesOnPages(db, pages).skipped).toEqual([]);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(pagesNaming(readFileSync(path), [ID])).toEqual([]);
    expect(db.prepare('SELECT rowid, * FROM t ORDER BY rowid').all()).toEqual(before);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('a WITHOUT ROWID table is rebuilt too', () => {
    const { path, db } = withDeadCopies('CREATE TABLE t (k TEXT PRIMARY KEY, sid TEXT, data TEXT) WITHOUT ROWID');
    const before = rows(db);
    expect(rebuildTreesOnPages(db, pagesNaming(readFileSync(path), [ID])).rebuilt).toEqual(['t']);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(pagesNaming(readFileSync(path), [ID])).toEqual([]);
    expect(rows(db)).toEqual(before);
    db.close();
  });

  it('a table with triggers is left as it is (a rebuild would fire them) and said so; a free page too', () => {
    const { path, db } = withDeadCopies('CREATE TABLE t (k TEXT PRIMARY KEY, sid TEXT, data TEXT); CREATE TABLE log (x); CREATE TRIGGER t_del AFTER DELETE ON t BEGIN INSERT INTO log VALUES (old.k); END');
    db.exec('DELETE FROM log');
    const pages = pagesNaming(readFileSync(path), [ID]);
    const before = rows(db);
    const r = rebuildTreesOnPages(db, [...pages, 10_000]);
    expect(r.rebuilt).toEqual([]);
    expect(r.skipped).toEqual(expect.arrayContaining(['1 free page(s) (no b-tree to rebuild)', 't (a table with triggers (a rebuild would fire them))']));
    expect(db.prepare('SELECT count(*) FROM log').pluck().get()).toBe(0);
    expect(rows(db)).toEqual(before);
    db.close();
  });

  it('a parent table other rows reference ON DELETE CASCADE: rebuilt on a connection with foreign keys on, no child row lost', () => {
    const { path, db } = withDeadCopies(
      'CREATE TABLE t (k TEXT PRIMARY KEY, sid TEXT, data TEXT); CREATE TABLE child (c INTEGER PRIMARY KEY, k TEXT REFERENCES t(k) ON DELETE CASCADE)',
    );
    db.exec("INSERT INTO child (k) SELECT k FROM t");
    const children = db.prepare('SELECT count(*) FROM child').pluck().get() as number;
    expect(children).toBeGreaterThan(0);
    db.pragma('foreign_keys = ON');
    const r = rebuildTreesOnPages(db, pagesNaming(readFileSync(path), [ID]));
    expect(r.rebuilt).toContain('t');
    expect(db.prepare('SELECT count(*) FROM child').pluck().get()).toBe(children);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});
