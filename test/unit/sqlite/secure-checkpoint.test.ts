// What a purge can guarantee about a WAL: a truncating checkpoint drops the old pages, unless another connection keeps a
// read open on them — then the purge says the -wal still holds the deleted text.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { secureCheckpoint } from '../../../src/sqlite/secure-checkpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'mam-securecp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(name: string): { path: string; writer: Database.Database; purge: Database.Database } {
  const path = join(dir, name);
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  writer.exec('CREATE TABLE t (x TEXT)');
  writer.prepare('INSERT INTO t VALUES (?)').run('SECRET-TEXT-'.repeat(40));
  const purge = new Database(path, { timeout: 0 });
  purge.pragma('secure_delete = ON');
  purge.exec('DELETE FROM t');
  return { path, writer, purge };
}

describe('secureCheckpoint', () => {
  it('truncates the -wal when no reader holds it: neither file holds the deleted text', () => {
    const { path, writer, purge } = setup('a.db');
    expect(secureCheckpoint(purge, path)).toEqual([]);
    expect(statSync(`${path}-wal`).size).toBe(0);
    expect(readFileSync(path).includes('SECRET-TEXT-')).toBe(false);
    purge.close();
    writer.close();
  });

  it('the WAL still holds the deleted text while another connection reads: says so', () => {
    const { path, writer, purge } = setup('b.db');
    writer.exec('BEGIN');
    writer.prepare('SELECT count(*) FROM t').get();
    purge.exec("INSERT INTO t VALUES ('z')");
    expect(secureCheckpoint(purge, path)).toEqual([`${path}-wal still holds the deleted text until the next checkpoint (another connection kept the WAL busy)`]);
    writer.exec('COMMIT');
    purge.close();
    writer.close();
  });

  it('a database not in WAL mode needs no checkpoint', () => {
    const db = new Database(join(dir, 'c.db'));
    expect(secureCheckpoint(db, 'c.db')).toEqual([]);
    db.close();
  });
});
