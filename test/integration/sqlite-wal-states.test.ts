import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dbRowsNaming, openReadonly, tableNames, userVersion, withReadonlyDb, type ReadRoute } from '../../src/sqlite/index.js';
import { openMemoryImage } from '../../src/sqlite/memory-image.js';
import { RecordingFs } from '../helpers/sqlite-recording-fs.js';
import { buildWalState, snapshotDir, WAL_STATES, type WalFixture, type WalFixtureState } from '../helpers/sqlite-wal-states.js';
import { strs } from '../helpers/artifact-strings.js';

const T1 = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const T2 = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';
// Several statements, so several commits land in the -wal.
const SQL = [
  'CREATE TABLE threads (id TEXT PRIMARY KEY, cwd TEXT)',
  `INSERT INTO threads VALUES ('${T1}', '/ws'), ('${T2}', '/ws2')`,
  'CREATE TABLE thread_items (thread_id TEXT, body TEXT)',
  `INSERT INTO thread_items VALUES ('${T1}', 'a'), ('${T1}', 'b'), ('${T2}', 'c')`,
  'PRAGMA user_version = 7',
];

const ALL_STATES: WalFixtureState[] = [...WAL_STATES, 'journal'];
const ROUTE: Record<WalFixtureState, ReadRoute> = {
  clean: 'immutable',
  leftover: 'sidecars',
  writer: 'sidecars',
  walonly: 'private-copy',
  journal: 'private-copy',
};

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

async function fixture(state: WalFixtureState, name = 'state_5.sqlite'): Promise<{ fx: WalFixture; dir: string }> {
  const root = mkdtempSync(join(tmpdir(), 'mam-sqlite-test-'));
  const dir = join(root, 'agent');
  mkdirSync(dir);
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const fx = await buildWalState(state, join(dir, name), SQL);
  cleanup.push(() => fx.stop());
  expect(readdirSync(dir).sort()).toEqual(fx.names);
  return { fx, dir };
}

// Every mutation the reader made went to a private temp dir, and each such dir is gone afterwards.
function expectOnlyPrivateMutations(rec: RecordingFs): void {
  expect(rec.mutationsOutsideTempDirs()).toEqual([]);
  for (const d of rec.tempDirs) expect(existsSync(d)).toBe(false);
}

const READERS: Record<string, (db: string, rec: RecordingFs, state: WalFixtureState) => Promise<void>> = {
  'openReadonly + a query': async (db, rec, state) => {
    const h = await openReadonly(db, { fs: rec.port });
    try {
      expect(h.via).toBe(ROUTE[state]);
      expect(h.db.prepare('SELECT id FROM threads ORDER BY id').pluck().all()).toEqual([T1, T2]);
      expect(h.db.prepare('SELECT count(*) FROM thread_items').pluck().get()).toBe(3);
    } finally {
      await h.close();
    }
  },
  dbRowsNaming: async (db, rec) => {
    expect(strs(await dbRowsNaming(db, T1, ['thread_id'], ['threads'], { fs: rec.port }))).toEqual([
      `${db} (threads.id: 1 rows)`,
      `${db} (thread_items.thread_id: 2 rows)`,
    ]);
  },
  tableNames: async (db, rec) => {
    expect(await withReadonlyDb(db, { fs: rec.port }, ({ db: d }) => tableNames(d))).toEqual(['thread_items', 'threads']);
  },
  'withReadonlyDb + userVersion': async (db, rec) => {
    expect(await withReadonlyDb(db, { fs: rec.port }, ({ db: d }) => userVersion(d))).toBe(7);
  },
};

describe.each(ALL_STATES)('reading a database in the %s state', (state) => {
  it.each(Object.keys(READERS))('%s sees the committed rows and leaves the directory as it was', async (reader) => {
    const { fx, dir } = await fixture(state);
    const before = snapshotDir(dir);
    const rec = new RecordingFs();
    await READERS[reader]?.(fx.dbPath, rec, state);
    expect(snapshotDir(dir)).toEqual(before);
    expectOnlyPrivateMutations(rec);
    if (ROUTE[state] === 'private-copy') expect(rec.tempDirs.length).toBeGreaterThan(0);
    else expect(rec.mutations()).toEqual([]);
  });
});

describe('the fixtures are what they claim (so the tests above can fail)', () => {
  it.each(['leftover', 'walonly', 'writer'] as const)('%s: the main file alone holds none of the rows; they live only in -wal', async (state) => {
    const { fx } = await fixture(state);
    const alone = openMemoryImage(readFileSync(fx.dbPath));
    try {
      expect(alone.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'threads'").pluck().get()).toBe(0);
    } finally {
      alone.close();
    }
  });

  it('journal: the main file alone shows the killed transaction (rows deleted); the reader rolls it back', async () => {
    const { fx } = await fixture('journal');
    const alone = openMemoryImage(readFileSync(fx.dbPath));
    try {
      expect(alone.prepare('SELECT count(*) FROM threads').pluck().get()).toBe(0);
    } finally {
      alone.close();
    }
    const h = await openReadonly(fx.dbPath, { fs: new RecordingFs().port });
    try {
      expect(h.db.prepare('SELECT count(*) FROM threads').pluck().get()).toBe(2);
    } finally {
      await h.close();
    }
  });

  it('writer: the live writer is still running during the read', async () => {
    const { fx } = await fixture('writer');
    await READERS['openReadonly + a query']?.(fx.dbPath, new RecordingFs(), 'writer');
    expect(fx.writer?.exitCode).toBe(null);
    expect(fx.writer?.signalCode).toBe(null);
  });
});
