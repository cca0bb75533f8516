import { describe, expect, it } from 'vitest';
import Database from '../../../src/sqlite/driver.js';
import { prepared } from '../../../src/sqlite/prepared.js';

function db(): Database.Database {
  const d = new Database(':memory:');
  d.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER); INSERT INTO t VALUES (\'a\', 1), (\'b\', 2), (\'c\', 3);');
  return d;
}

describe('prepared', () => {
  it('prepares a statement once per connection and SQL', () => {
    const d = db();
    const a = prepared(d, 'SELECT v FROM t WHERE id = ?');
    expect(prepared(d, 'SELECT v FROM t WHERE id = ?')).toBe(a);
    expect(a.get('b')).toEqual({ v: 2 });
    expect(prepared(db(), 'SELECT v FROM t WHERE id = ?')).not.toBe(a);
  });

  it('keeps the pluck statement apart from the plain one', () => {
    const d = db();
    const plain = prepared(d, 'SELECT v FROM t WHERE id = ?');
    const pluck = prepared(d, 'SELECT v FROM t WHERE id = ?', 'pluck');
    expect(pluck).not.toBe(plain);
    expect(pluck.get('c')).toBe(3);
    expect(plain.get('c')).toEqual({ v: 3 });
  });

  it('keeps the raw statement apart from the plain and pluck ones', () => {
    const d = db();
    const sql = 'SELECT id, v FROM t WHERE id = ?';
    const raw = prepared(d, sql, 'raw');
    expect(prepared(d, sql, 'raw')).toBe(raw);
    expect(raw).not.toBe(prepared(d, sql));
    expect(raw.all('b')).toEqual([['b', 2]]);
    expect(prepared(d, sql).get('b')).toEqual({ id: 'b', v: 2 });
    expect(prepared(d, sql, 'pluck').get('b')).toBe('b');
  });

  it('never shares a statement that is still iterating', () => {
    const d = db();
    const sql = 'SELECT id FROM t ORDER BY id';
    const it1 = prepared(d, sql, 'pluck').iterate();
    expect(it1.next().value).toBe('a');
    // The cached statement is busy: the second caller gets its own and both read every row.
    expect(prepared(d, sql, 'pluck').all()).toEqual(['a', 'b', 'c']);
    expect([...it1]).toEqual(['b', 'c']);
    expect(prepared(d, sql, 'pluck').all()).toEqual(['a', 'b', 'c']);
  });

  it('stops caching once a connection has many statements (SQL spelling data)', () => {
    const d = db();
    for (let i = 0; i < 64; i += 1) prepared(d, `SELECT ${i} AS n`);
    const late = prepared(d, 'SELECT 999 AS n');
    expect(prepared(d, 'SELECT 999 AS n')).not.toBe(late);
    expect(prepared(d, 'SELECT 0 AS n')).toBe(prepared(d, 'SELECT 0 AS n'));
  });
});
