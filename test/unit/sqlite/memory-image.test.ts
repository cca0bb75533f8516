import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openMemoryImage } from '../../../src/sqlite/memory-image.js';

function image(): Buffer {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('a'), ('b')");
  const buf = db.serialize();
  db.close();
  return buf;
}

describe('openMemoryImage', () => {
  it('reads a rollback-mode image as it is, read-only', () => {
    const buf = image();
    expect([buf[18], buf[19]]).toEqual([1, 1]);
    const db = openMemoryImage(buf);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2);
    expect(() => db.exec("INSERT INTO t VALUES ('c')")).toThrow(/readonly/);
    db.close();
  });

  it('reads a WAL-mode image (header bytes 18–19 = 2), which better-sqlite3 cannot open unpatched', () => {
    const wal = image();
    wal[18] = 2;
    wal[19] = 2;
    expect(() => new Database(Buffer.from(wal), { readonly: true }).prepare('SELECT count(*) FROM t').get()).toThrow(/unable to open/);
    const db = openMemoryImage(new Uint8Array(wal.buffer, wal.byteOffset, wal.byteLength));
    expect(db.prepare('SELECT x FROM t ORDER BY x').pluck().all()).toEqual(['a', 'b']);
    db.close();
  });
});
