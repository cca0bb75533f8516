// better-sqlite3's native binding is loaded on the first open: a load that fails is a typed SqliteBindingError (code
// SQLITE_BINDING_MISSING, how to fix the install in its message) and not remembered.
import { describe, expect, it } from 'vitest';
import { isMamError } from '../../../src/errors.js';
import Database, { SqliteBindingError, withSqliteLoader } from '../../../src/sqlite/driver.js';

const failing = (): never => {
  throw new Error('Could not locate the bindings file. Tried: build/Release/better_sqlite3.node');
};

describe('the SQLite driver without its binding', () => {
  it('a purge-time open with the binding missing throws SQLITE_BINDING_MISSING saying how to fix the install', () => {
    let thrown: unknown;
    withSqliteLoader(failing, () => {
      try {
        new Database(':memory:');
      } catch (err) {
        thrown = err;
      }
    });
    expect(thrown).toBeInstanceOf(SqliteBindingError);
    expect(isMamError(thrown) && thrown.code).toBe('SQLITE_BINDING_MISSING');
    expect((thrown as Error).message).toMatch(/npm rebuild better-sqlite3|install scripts allowed/);
  });

  it('a failed load is not remembered: the next open outside the stand-in works', () => {
    expect(() => withSqliteLoader(failing, () => new Database(':memory:'))).toThrow(SqliteBindingError);
    const db = new Database(':memory:');
    expect(db.prepare('select 1 as x').get()).toEqual({ x: 1 });
    db.close();
  });
});
