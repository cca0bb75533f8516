import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortError } from '../../src/errors.js';
import { openReadonly, SqliteReadError, type SqliteDatabase, withReadonlyDb, type ReadonlyDb } from '../../src/sqlite/index.js';
import { RecordingFs } from '../helpers/sqlite-recording-fs.js';
import { buildWalState, snapshotDir } from '../helpers/sqlite-wal-states.js';

const SQL = ['CREATE TABLE threads (id TEXT)', "INSERT INTO threads VALUES ('a'), ('b')"];

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mam-sqlite-open-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const count = (h: ReadonlyDb): unknown => h.db.prepare('SELECT count(*) FROM threads').pluck().get();

describe('openReadonly', () => {
  it('reads a -shm without -wal as immutable and leaves the stray -shm alone', async () => {
    const dir = tempDir();
    const fx = await buildWalState('clean', join(dir, 'x.db'), SQL);
    writeFileSync(`${fx.dbPath}-shm`, Buffer.alloc(32768));
    const before = snapshotDir(dir);
    const rec = new RecordingFs();
    const h = await openReadonly(fx.dbPath, { fs: rec.port });
    expect([h.state, h.via, count(h)]).toEqual(['shmonly', 'immutable', 2]);
    await h.close();
    expect(snapshotDir(dir)).toEqual(before);
    expect(rec.mutations()).toEqual([]);
  });

  it('follows a symbolic link and uses the sidecars beside the real file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'real'));
    mkdirSync(join(dir, 'links'));
    const fx = await buildWalState('leftover', join(dir, 'real', 'x.db'), SQL);
    symlinkSync(fx.dbPath, join(dir, 'links', 'x.db'));
    const before = [snapshotDir(join(dir, 'real')), snapshotDir(join(dir, 'links'))];
    const h = await openReadonly(join(dir, 'links', 'x.db'), { fs: new RecordingFs().port });
    expect([h.state, h.via, count(h)]).toEqual(['leftover', 'sidecars', 2]);
    await h.close();
    expect([snapshotDir(join(dir, 'real')), snapshotDir(join(dir, 'links'))]).toEqual(before);
  });

  it('opens read-only: a write through the handle fails and the file is unchanged', async () => {
    const dir = tempDir();
    const fx = await buildWalState('clean', join(dir, 'x.db'), SQL);
    const before = snapshotDir(dir);
    await withReadonlyDb(fx.dbPath, { fs: new RecordingFs().port }, ({ db }) => {
      expect(() => db.exec("INSERT INTO threads VALUES ('c')")).toThrow(/readonly/i);
    });
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('rejects a missing file with a NotFound PortError and creates nothing', async () => {
    const dir = tempDir();
    const err: unknown = await openReadonly(join(dir, 'missing.db'), { fs: new RecordingFs().port }).catch((e: unknown) => e);
    expect(isPortError(err, 'NotFound')).toBe(true);
    expect(snapshotDir(dir)).toEqual([]);
  });

  it.each([
    ['not a database', (p: string) => writeFileSync(p, 'hello, not SQLite '.repeat(100))],
    ['a directory', (p: string) => mkdirSync(p)],
  ])('rejects %s with a SqliteReadError naming the path, and touches nothing', async (_, make) => {
    const dir = tempDir();
    const path = join(dir, 'x.db');
    make(path);
    const before = snapshotDir(dir);
    const err: unknown = await openReadonly(path, { fs: new RecordingFs().port }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SqliteReadError);
    expect((err as SqliteReadError).code).toBe('SQLITE_READ_FAILED');
    expect((err as SqliteReadError).message).toContain(path);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('a hot journal that is unreadable in the copy still removes the private copy', async () => {
    const dir = tempDir();
    const path = join(dir, 'x.db');
    writeFileSync(path, 'garbage '.repeat(600));
    writeFileSync(`${path}-journal`, 'garbage journal');
    const rec = new RecordingFs();
    await expect(openReadonly(path, { fs: rec.port })).rejects.toBeInstanceOf(SqliteReadError);
    expect(rec.tempDirs).toHaveLength(1);
    expect(rec.mutations().filter((c) => c.op === 'rmdir').map((c) => c.args[0])).toEqual(rec.tempDirs);
  });

  it('close() is idempotent and withReadonlyDb closes even when the callback throws', async () => {
    const dir = tempDir();
    const fx = await buildWalState('walonly', join(dir, 'x.db'), SQL);
    const h = await openReadonly(fx.dbPath, { fs: new RecordingFs().port });
    await h.close();
    await h.close();
    expect(h.db.open).toBe(false);
    let seen: SqliteDatabase | undefined;
    await expect(
      withReadonlyDb(fx.dbPath, { fs: new RecordingFs().port }, ({ db }) => {
        seen = db;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(seen?.open).toBe(false);
  });
});
