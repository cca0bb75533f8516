// openReadonly with `requireFile` refuses, before any open, a path that is not a regular file (a FIFO would block the
// open, a directory fails late); a link to a regular database still opens, and the handle carries the lstats it took.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { openReadonly } from '../../src/sqlite/open-readonly.js';
import { SqliteReadError } from '../../src/sqlite/sqlite-read-error.js';
import { snapshotDir } from '../helpers/sqlite-wal-states.js';
import { RecordingFs } from '../helpers/sqlite-recording-fs.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
const fresh = (): string => {
  const r = realpathSync(mkdtempSync(join(tmpdir(), 'mam-require-file-')));
  roots.push(r);
  return r;
};
const fs = new NodeFileSystem();

function makeDb(path: string): void {
  const db = new Database(path);
  db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
  db.close();
}

describe('openReadonly requireFile', () => {
  it('a FIFO in the database place is refused at once, not opened (the open would block)', async () => {
    const dir = fresh();
    const path = join(dir, 'state_5.sqlite');
    execFileSync('mkfifo', [path]);
    const before = snapshotDir(dir);
    await expect(openReadonly(path, { fs, requireFile: true })).rejects.toBeInstanceOf(SqliteReadError);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('a directory in the database place is refused with its kind', async () => {
    const dir = fresh();
    const path = join(dir, 'state_5.sqlite');
    mkdirSync(path);
    const err: unknown = await openReadonly(path, { fs, requireFile: true }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(SqliteReadError);
    expect(String((err as Error).cause)).toMatch(/not a regular file \(dir\)/);
  });

  it('a regular file opens and carries its lstats; a link to one opens too (no stats: it is not its own realpath)', async () => {
    const dir = fresh();
    const path = join(dir, 'state_5.sqlite');
    makeDb(path);
    const h = await openReadonly(path, { fs, requireFile: true });
    try {
      expect(h.db.prepare('SELECT x FROM t').pluck().get()).toBe(1);
      expect(h.stats?.file.kind).toBe('file');
      expect(h.stats?.sidecars).toEqual([null, null, null]);
    } finally {
      await h.close();
    }
    const link = join(dir, 'link.sqlite');
    symlinkSync(path, link);
    const l = await openReadonly(link, { fs, requireFile: true });
    try {
      expect(l.db.prepare('SELECT x FROM t').pluck().get()).toBe(1);
      expect(l.stats).toBeUndefined();
    } finally {
      await l.close();
    }
  });
});

describe('openReadonly looks, without a realpath where none is needed', () => {
  it('a plain path is one lstat of the file and one of each sidecar name (no realpath); a link is still resolved', async () => {
    const dir = fresh();
    const path = join(dir, 'state_5.sqlite');
    makeDb(path);
    const rec = new RecordingFs();
    const h = await openReadonly(path, { fs: rec.port, requireFile: true });
    await h.close();
    expect(rec.calls.filter((c) => c.op === 'realpath')).toEqual([]);
    expect(rec.calls.filter((c) => c.op === 'lstat' && c.args[0] === path)).toHaveLength(1);
    expect(rec.calls.filter((c) => c.op === 'lstat').map((c) => c.args[0]).sort()).toEqual([path, `${path}-journal`, `${path}-shm`, `${path}-wal`].sort());
    const link = join(dir, 'link.sqlite');
    symlinkSync(path, link);
    const viaLink = new RecordingFs();
    const l = await openReadonly(link, { fs: viaLink.port, requireFile: true });
    await l.close();
    expect(viaLink.calls.filter((c) => c.op === 'realpath').map((c) => c.args[0])).toEqual([link]);
    // The sidecars beside the link's target are the ones looked at for the open.
    expect(viaLink.calls.some((c) => c.op === 'lstat' && c.args[0] === `${path}-wal`)).toBe(true);
  });

  it('through a linked parent directory the file opens in place with its stats, and sees a -wal beside it', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'real'));
    const path = join(dir, 'real', 'state_5.sqlite');
    makeDb(path);
    symlinkSync(join(dir, 'real'), join(dir, 'via'));
    // A writer keeps the WAL open: a row only in -wal must be seen through the linked directory too.
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('INSERT INTO t VALUES (2)');
    try {
      const h = await openReadonly(join(dir, 'via', 'state_5.sqlite'), { fs, requireFile: true });
      try {
        expect(h.state).toBe('leftover');
        expect(h.stats?.file.kind).toBe('file');
        expect(h.db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2);
      } finally {
        await h.close();
      }
    } finally {
      writer.close();
    }
  });
});
