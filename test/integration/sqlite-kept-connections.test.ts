import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { nodePorts } from '../../src/node/node-ports.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import Database from '../../src/sqlite/driver.js';
import { dbWriteRefusal } from '../../src/sqlite/db-write-guard.js';
import { keepConnections, keptCount } from '../../src/sqlite/kept-connections.js';
import { SpyFileSystem } from '../helpers/adapter-codex-spy.js';
import { withReadonlyDb } from '../../src/sqlite/open-readonly.js';
import { withReadScope } from '../../src/sqlite/read-scope.js';
import { snapshotDir } from '../helpers/sqlite-wal-states.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mam-kept-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// A rollback-journal database (no sidecars at rest), its rows `v` of one table.
function makeDb(path: string, values: readonly string[]): void {
  const d = new Database(path);
  d.exec('CREATE TABLE t (v TEXT)');
  const ins = d.prepare('INSERT INTO t VALUES (?)');
  for (const v of values) ins.run(v);
  d.close();
}

function write(path: string, sql: string): void {
  const d = new Database(path);
  d.exec(sql);
  d.close();
}

// At rest: last changed a minute ago (older than the settle time).
function age(path: string, secondsAgo = 60): number {
  const t = Math.floor(Date.now() / 1000) - secondsAgo;
  utimesSync(path, t, t);
  return t;
}

async function read(fs: FileSystemPort, path: string): Promise<{ rows: string[]; db: object }> {
  return withReadonlyDb(path, { fs, requireFile: true }, (h) => ({ rows: h.db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all() as string[], db: h.db }));
}

describe('read-only connections kept between calls', () => {
  it('an unchanged store at rest is opened once across calls, and its directory is left as it was', async () => {
    const db = join(dir, 'a.db');
    makeDb(db, ['x', 'y']);
    age(db);
    const { fs } = nodePorts();
    const before = snapshotDir(dir);
    const one = await read(fs, db);
    const two = await read(fs, db);
    expect(two.rows).toEqual(['x', 'y']);
    expect(two.db).toBe(one.db);
    expect(keptCount(fs)).toBe(1);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('a write after the keep is read afresh', async () => {
    const db = join(dir, 'a.db');
    makeDb(db, ['x']);
    age(db);
    const { fs } = nodePorts();
    const one = await read(fs, db);
    write(db, "INSERT INTO t VALUES ('new')");
    const two = await read(fs, db);
    expect(two.rows).toEqual(['x', 'new']);
    expect(two.db).not.toBe(one.db);
  });

  it('a change in place of the same size with the mtime set back is read afresh (the ctime moved)', async () => {
    const db = join(dir, 'a.db');
    makeDb(db, ['aaaa']);
    const t = age(db);
    const { fs } = nodePorts();
    expect((await read(fs, db)).rows).toEqual(['aaaa']);
    write(db, "UPDATE t SET v = 'bbbb'");
    utimesSync(db, t, t);
    expect((await read(fs, db)).rows).toEqual(['bbbb']);
  });

  it('a store replaced by rename (same size, same mtime) is read afresh', async () => {
    const db = join(dir, 'a.db');
    const other = join(dir, 'b.db');
    makeDb(db, ['aaaa']);
    makeDb(other, ['bbbb']);
    const t = age(db);
    utimesSync(other, t, t);
    const { fs } = nodePorts();
    expect((await read(fs, db)).rows).toEqual(['aaaa']);
    renameSync(other, db);
    expect((await read(fs, db)).rows).toEqual(['bbbb']);
  });

  it('a store changed within the settle time is not kept', async () => {
    const db = join(dir, 'a.db');
    makeDb(db, ['x']);
    const { fs } = nodePorts();
    const one = await read(fs, db);
    expect(keptCount(fs)).toBe(0);
    expect((await read(fs, db)).db).not.toBe(one.db);
  });

  it('a writer that starts after the keep (its -wal and -shm beside the file) is read through them', async () => {
    const db = join(dir, 'a.db');
    makeDb(db, ['x']);
    age(db);
    const { fs } = nodePorts();
    await read(fs, db);
    const w = new Database(db);
    try {
      w.pragma('journal_mode = WAL');
      w.exec("INSERT INTO t VALUES ('in-wal')");
      expect((await read(fs, db)).rows).toEqual(['x', 'in-wal']);
      expect(keptCount(fs)).toBe(0);
    } finally {
      w.close();
    }
  });

  it('a link swapped in for the file, or its removal, closes the kept connection', async () => {
    const db = join(dir, 'a.db');
    const elsewhere = join(dir, 'elsewhere.db');
    makeDb(db, ['mine']);
    makeDb(elsewhere, ['theirs']);
    age(db);
    age(elsewhere);
    const { fs } = nodePorts();
    await read(fs, db);
    renameSync(db, join(dir, 'moved.db'));
    symlinkSync(elsewhere, db);
    expect((await read(fs, db)).rows).toEqual(['theirs']);
    expect(keptCount(fs)).toBe(0);
    rmSync(db);
    copyFileSync(join(dir, 'moved.db'), db);
    age(db);
    await read(fs, db);
    expect(keptCount(fs)).toBe(1);
    rmSync(db);
    await expect(read(fs, db)).rejects.toThrow();
    expect(keptCount(fs)).toBe(0);
  });

  it('the write guard closes every kept connection before a write', async () => {
    const { fs } = nodePorts();
    for (const n of ['a', 'b']) {
      makeDb(join(dir, `${n}.db`), [n]);
      age(join(dir, `${n}.db`));
      await read(fs, join(dir, `${n}.db`));
    }
    expect(keptCount(fs)).toBe(2);
    expect(await dbWriteRefusal(fs, join(dir, 'a.db'))).toBeNull();
    expect(keptCount(fs)).toBe(0);
  });

  it('a file system port without the real clock (not from nodePorts) keeps nothing', async () => {
    const db = join(dir, 'a.db');
    makeDb(db, ['x']);
    age(db);
    const fs = new NodeFileSystem();
    const one = await read(fs, db);
    expect((await read(fs, db)).db).not.toBe(one.db);
    expect(keptCount(fs)).toBe(0);
  });

  it('a read scope keeps its one connection at its end for the next scope, and a port keeps only a few', async () => {
    const { fs } = nodePorts();
    const paths = Array.from({ length: 20 }, (_, i) => join(dir, `s${i}.db`));
    for (const p of paths) {
      makeDb(p, [p]);
      age(p);
    }
    const first = await withReadScope(() => read(fs, paths[0] as string));
    const again = await withReadScope(() => read(fs, paths[0] as string));
    expect(again.db).toBe(first.db);
    for (const p of paths) expect((await read(fs, p)).rows).toEqual([p]);
    expect(keptCount(fs)).toBe(16);
  });

  it('property: reads through kept connections answer as fresh opens, whatever happens to the store between them', async () => {
    type Op = { kind: 'insert' | 'update-same-size-restore-mtime' | 'replace' | 'age' | 'age-dir' | 'wal-writer' | 'link-swap' | 'read' };
    const op = fc.constantFrom<Op['kind']>('insert', 'update-same-size-restore-mtime', 'replace', 'age', 'age-dir', 'wal-writer', 'link-swap', 'read').map((kind) => ({ kind }));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), fc.boolean(), async (ops, walMode) => {
        // Each run in a directory of its own, which 'age-dir' sets back (at rest, or its mtime restored after a change).
        const home = join(dir, `p${(run += 1)}`);
        mkdirSync(home);
        const base = join(home, 'p');
        const db = `${base}.db`;
        makeDb(db, ['r0']);
        // A store in WAL mode at rest (closed cleanly, no sidecars): a writer's frames then go to the -wal alone.
        if (walMode) write(db, 'PRAGMA journal_mode = WAL');
        let t = age(db, 100);
        age(home, 100);
        const kept = nodePorts().fs;
        const fresh = new NodeFileSystem();
        let n = 0;
        // A writer in WAL mode left open: its -wal and -shm stay beside the file until the run ends.
        let writer: InstanceType<typeof Database> | null = null;
        try {
        for (const { kind } of [...ops, { kind: 'read' as const }]) {
          n += 1;
          if (kind === 'age-dir') age(home, 100 - n);
          else if (kind === 'wal-writer') {
            writer ??= new Database(db);
            writer.pragma('journal_mode = WAL');
            writer.exec(`INSERT INTO t VALUES ('w${n}')`);
          } else if (kind === 'insert') write(db, `INSERT INTO t VALUES ('r${n}')`);
          else if (kind === 'update-same-size-restore-mtime') {
            write(db, `UPDATE t SET v = 'u' || substr(v, 2) WHERE rowid = 1`);
            utimesSync(db, t, t);
          } else if (kind === 'replace') {
            makeDb(`${base}-new.db`, ['q0', `q${n}`]);
            utimesSync(`${base}-new.db`, t, t);
            renameSync(`${base}-new.db`, db);
          } else if (kind === 'age') t = age(db, 100 - n);
          else if (kind === 'link-swap') {
            renameSync(db, `${base}-real.db`);
            symlinkSync(`${base}-real.db`, db);
            expect((await read(kept, db)).rows).toEqual((await read(fresh, db)).rows);
            rmSync(db);
            renameSync(`${base}-real.db`, db);
          } else expect((await read(kept, db)).rows).toEqual((await read(fresh, db)).rows);
        }
        } finally {
          writer?.close();
        }
      }),
      // The runs always include a writer starting beside a store kept under its directory's stamp (its file untouched).
      {
        numRuns: 50,
        examples: [
          [[{ kind: 'read' }, { kind: 'wal-writer' }], true],
          [[{ kind: 'read' }, { kind: 'wal-writer' }, { kind: 'age-dir' }, { kind: 'read' }, { kind: 'wal-writer' }], true],
        ],
      },
    );
  });
});

describe('a kept connection under its directory\'s stamp (two looks, not four)', () => {
  // A store and its directory at rest; the port keeps connections and records each call.
  function atRest(): { db: string; sub: string; spy: SpyFileSystem } {
    const sub = join(dir, 'store');
    mkdirSync(sub);
    const db = join(sub, 'a.db');
    makeDb(db, ['x']);
    // In WAL mode and closed cleanly, as Codex leaves its state DB: a writer then writes its -wal, not the file.
    write(db, 'PRAGMA journal_mode = WAL');
    age(db);
    age(sub);
    const spy = new SpyFileSystem(new NodeFileSystem());
    keepConnections(spy, () => Date.now());
    return { db, sub, spy };
  }
  const looks = (spy: SpyFileSystem): string[] => spy.calls.map((c) => `${c.op} ${c.path.slice(dir.length)}`);

  it('an unchanged store in an unchanged directory is looked at through the file and its directory only', async () => {
    const { db, spy } = atRest();
    const one = await read(spy, db);
    spy.calls.length = 0;
    const two = await read(spy, db);
    expect(two.db).toBe(one.db);
    expect(looks(spy).sort()).toEqual(['lstat /store', 'lstat /store/a.db']);
  });

  it('a directory changed within the settle time is not trusted: the sidecars are looked at again', async () => {
    const { db, sub, spy } = atRest();
    utimesSync(sub, new Date(), new Date());
    const one = await read(spy, db);
    spy.calls.length = 0;
    expect((await read(spy, db)).db).toBe(one.db);
    expect(looks(spy)).toEqual(expect.arrayContaining(['lstat /store/a.db-wal', 'lstat /store/a.db-shm', 'lstat /store/a.db-journal']));
  });

  it('a writer that starts after the keep changes the directory: its -wal is read, even with the directory\'s mtime set back', async () => {
    for (const restore of [false, true]) {
      const { db, sub, spy } = atRest();
      const t = age(sub);
      await read(spy, db);
      const w = new Database(db);
      try {
        w.pragma('journal_mode = WAL');
        w.exec("INSERT INTO t VALUES ('in-wal')");
        if (restore) utimesSync(sub, t, t);
        expect((await read(spy, db)).rows).toEqual(['x', 'in-wal']);
        expect(keptCount(spy)).toBe(0);
      } finally {
        w.close();
      }
      rmSync(sub, { recursive: true });
    }
  });

  it('an unrelated entry made in the directory keeps the connection (the sidecars looked at once more), and the new stamp is not trusted until it settles', async () => {
    const { db, sub, spy } = atRest();
    const one = await read(spy, db);
    copyFileSync(db, join(sub, 'other'));
    spy.calls.length = 0;
    expect((await read(spy, db)).db).toBe(one.db);
    expect(looks(spy)).toContain('lstat /store/a.db-wal');
    spy.calls.length = 0;
    expect((await read(spy, db)).db).toBe(one.db);
    expect(looks(spy)).toContain('lstat /store/a.db-wal');
  });
});
