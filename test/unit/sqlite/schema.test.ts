import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteIdent, tableColumns, tableNames, userVersion } from '../../../src/sqlite/index.js';

// Names as they may come from disk: quotes, brackets, semicolons, spaces, unicode; never NUL, never SQLite's own prefix.
const ident = fc
  .string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('"', "'", '`', '[', ']', ';', ' ', '-', ')', '(', 'a', 'B', 'ü', '😀', '%', '*', '/') })
  .filter((s) => !s.toLowerCase().startsWith('sqlite_'));

describe('quoteIdent, tableNames, tableColumns', () => {
  it('round-trips any table and column name through CREATE, the schema and a query', () => {
    fc.assert(
      fc.property(ident, fc.uniqueArray(ident, { minLength: 1, maxLength: 4, selector: (s) => s.toLowerCase() }), (table, cols) => {
        const db = new Database(':memory:');
        try {
          db.exec(`CREATE TABLE ${quoteIdent(table)} (${cols.map(quoteIdent).join(', ')})`);
          expect(tableNames(db)).toEqual([table]);
          expect(tableColumns(db, table)).toEqual(cols);
          expect(db.prepare(`SELECT count(*) FROM ${quoteIdent(table)} WHERE ${quoteIdent(cols[0] ?? '')} = ?`).pluck().get('x')).toBe(0);
        } finally {
          db.close();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('quotes an injection attempt into a plain (missing) name', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE victim (x)');
    expect(tableColumns(db, 'victim"); DROP TABLE victim; --')).toEqual([]);
    expect(tableNames(db)).toEqual(['victim']);
    expect(quoteIdent('a"b')).toBe('"a""b"');
    db.close();
  });

  it('lists ordinary tables sorted, without SQLite’s own, and reads user_version', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE zeta (id INTEGER PRIMARY KEY AUTOINCREMENT); CREATE TABLE alpha (x); CREATE VIEW v AS SELECT 1; CREATE INDEX i ON alpha (x)');
    db.exec('INSERT INTO zeta DEFAULT VALUES; PRAGMA user_version = 42');
    expect(tableNames(db)).toEqual(['alpha', 'zeta']);
    expect(tableColumns(db, 'nope')).toEqual([]);
    expect(userVersion(db)).toBe(42);
    db.close();
  });
});
