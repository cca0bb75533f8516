// Pins what better-sqlite3 12 / SQLite 3.53 do with the filenames the reader relies on (spec/sqlite-readonly.md:
// "find out, and pin in a test, how to pass a URI filename"). Each case runs in a fresh process.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runChild } from '../helpers/sqlite-run-child.js';
import { buildWalState, snapshotDir, type WalFixture, type WalFixtureState } from '../helpers/sqlite-wal-states.js';

const SQL = ['CREATE TABLE threads (id TEXT)', "INSERT INTO threads VALUES ('a'), ('b')"];

interface Fact {
  ok: boolean;
  code?: string;
  rows?: number;
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

async function fixture(state: WalFixtureState): Promise<{ fx: WalFixture; dir: string; cwd: string }> {
  const root = mkdtempSync(join(tmpdir(), 'mam-sqlite-facts-'));
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'agent');
  const cwd = join(root, 'cwd');
  mkdirSync(dir);
  mkdirSync(cwd);
  const fx = await buildWalState(state, join(dir, 'x.db'), SQL);
  cleanup.push(() => fx.stop());
  return { fx, dir, cwd };
}

const open = (cwd: string, uri: string, setEnvFirst: boolean): Promise<Fact> => runChild<Fact>('sqlite-uri-facts-child.mjs', { uri, setEnvFirst }, cwd);

describe('better-sqlite3 URI filenames', () => {
  it('are off by default: a file: URI is a literal (missing) file name, so a read-only open fails and creates nothing', async () => {
    const { fx, dir, cwd } = await fixture('clean');
    const before = snapshotDir(dir);
    expect(await open(cwd, `${pathToFileURL(fx.dbPath).href}?mode=ro&immutable=1`, false)).toEqual({ ok: false, code: 'SQLITE_CANTOPEN' });
    expect(snapshotDir(dir)).toEqual(before);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('are on when SQLITE_USE_URI=1 is set before the first open: immutable reads a WAL-mode file and creates nothing', async () => {
    const { fx, dir, cwd } = await fixture('clean');
    const before = snapshotDir(dir);
    expect(await open(cwd, `${pathToFileURL(fx.dbPath).href}?mode=ro&immutable=1`, true)).toEqual({ ok: true, rows: 2 });
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('a plain read-only open of a WAL-mode file at rest creates -wal and -shm and leaves them (never used)', async () => {
    const { fx, dir, cwd } = await fixture('clean');
    expect(await open(cwd, fx.dbPath, false)).toEqual({ ok: true, rows: 2 });
    expect(readdirSync(dir).sort()).toEqual(['x.db', 'x.db-shm', 'x.db-wal']);
  });

  it('immutable does not see rows that live only in -wal (so it is used only with no sidecar)', async () => {
    const { fx, cwd } = await fixture('leftover');
    expect(await open(cwd, `${pathToFileURL(fx.dbPath).href}?mode=ro&immutable=1`, true)).toEqual({ ok: false, code: 'SQLITE_ERROR' });
  });

  it('plain mode=ro with both sidecars sees the -wal rows but rewrites the -shm (its mtime changes), hence readonly_shm=1', async () => {
    const { fx, dir, cwd } = await fixture('leftover');
    const before = snapshotDir(dir);
    expect(await open(cwd, `${pathToFileURL(fx.dbPath).href}?mode=ro`, true)).toEqual({ ok: true, rows: 2 });
    const after = snapshotDir(dir);
    expect(after.map((l) => l.split(' ')[0])).toEqual(before.map((l) => l.split(' ')[0]));
    expect(after.find((l) => l.startsWith('x.db-shm '))).not.toEqual(before.find((l) => l.startsWith('x.db-shm ')));
  });

  it.each(['leftover', 'writer'] as const)('mode=ro&readonly_shm=1 in the %s state sees the -wal rows and changes nothing', async (state) => {
    const { fx, dir, cwd } = await fixture(state);
    const before = snapshotDir(dir);
    expect(await open(cwd, `${pathToFileURL(fx.dbPath).href}?mode=ro&readonly_shm=1`, true)).toEqual({ ok: true, rows: 2 });
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('a read-only open cannot roll back a hot journal (so the journal state is read from a private copy)', async () => {
    const { fx, cwd } = await fixture('journal');
    expect(await open(cwd, `${pathToFileURL(fx.dbPath).href}?mode=ro`, true)).toEqual({ ok: false, code: 'SQLITE_READONLY_ROLLBACK' });
  });
});
