// Regression: a read-only open of a file that is not a SQLite database, with a -wal and -shm beside it, deleted that
// -wal. The header is checked before SQLite opens anything in place: the open fails and both sidecars stay as they were.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { openReadonly } from '../../src/sqlite/open-readonly.js';
import { SqliteReadError } from '../../src/sqlite/sqlite-read-error.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('openReadonly on a file that is not a database', () => {
  it.each([
    ['text', 'not a database at all, just some text that is longer than a header'],
    ['short', 'SQLite'],
  ])('(%s) with both sidecars: refused, the -wal and -shm untouched', async (_name, body) => {
    dir = mkdtempSync(join(tmpdir(), 'mam-notdb-'));
    const db = join(dir, 'x.db');
    writeFileSync(db, body);
    // Real sidecars: a database in WAL mode with committed frames, held open while its -wal and -shm are copied.
    const real = join(dir, 'real.db');
    const conn = new Database(real);
    conn.pragma('journal_mode = WAL');
    conn.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('frame')");
    copyFileSync(`${real}-wal`, `${db}-wal`);
    copyFileSync(`${real}-shm`, `${db}-shm`);
    conn.close();
    rmSync(real, { force: true });
    const before = readdirSync(dir).sort();
    const wal = readFileSync(`${db}-wal`);
    const shm = readFileSync(`${db}-shm`);
    await expect(openReadonly(db, { fs: new NodeFileSystem() })).rejects.toBeInstanceOf(SqliteReadError);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(before).toEqual(['x.db', 'x.db-shm', 'x.db-wal']);
    expect(readFileSync(`${db}-wal`).equals(wal)).toBe(true);
    expect(readFileSync(`${db}-shm`).equals(shm)).toBe(true);
  });
});
