import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChild } from '../helpers/sqlite-run-child.js';
import { buildWalState, snapshotDir, WAL_STATES, type WalFixture, type WalFixtureState } from '../helpers/sqlite-wal-states.js';

const T1 = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const T2 = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';
const SQL = [
  'CREATE TABLE threads (id TEXT PRIMARY KEY)',
  `INSERT INTO threads VALUES ('${T1}'), ('${T2}')`,
  'CREATE TABLE thread_items (thread_id TEXT)',
  `INSERT INTO thread_items VALUES ('${T1}')`,
];
const STATES: WalFixtureState[] = [...WAL_STATES, 'journal'];

interface ChildReport {
  uri: boolean;
  results: Array<{ path: string; state: string; via: string; ids: string[]; naming: string[]; tables: string[] }>;
}

let root: string;
const fixtures: WalFixture[] = [];

// Every name ever created under `dir`, recursively.
function allNames(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mam-sqlite-early-'));
  for (const state of STATES) {
    // Characters a file: URI must escape, in the directory and in the file name.
    const dir = join(root, `agent ${state} #1 ?x=%41 ü`);
    mkdirSync(dir);
    fixtures.push(await buildWalState(state, join(dir, 'state 5#?%.sqlite'), SQL));
  }
});

afterAll(async () => {
  for (const fx of fixtures) await fx.stop();
  rmSync(root, { recursive: true, force: true });
});

async function readAll(early: boolean): Promise<{ report: ChildReport; cwd: string }> {
  const cwd = mkdtempSync(join(root, 'cwd-'));
  const before = fixtures.map((fx) => snapshotDir(join(fx.dbPath, '..')));
  const report = await runChild<ChildReport>('sqlite-reader-child.ts', { early, dbs: fixtures.map((fx) => ({ path: fx.dbPath, id: T1 })) }, cwd);
  expect(fixtures.map((fx) => snapshotDir(join(fx.dbPath, '..')))).toEqual(before);
  return { report, cwd };
}

function expectRowsSeen(report: ChildReport): void {
  expect(report.results).toHaveLength(STATES.length);
  for (const [i, r] of report.results.entries()) {
    expect(r.path).toBe(fixtures[i]?.dbPath);
    expect(r.ids).toEqual([T1, T2]);
    expect(r.tables).toEqual(['thread_items', 'threads']);
    expect(r.naming).toEqual([`${r.path} (threads.id: 1 rows)`, `${r.path} (thread_items.thread_id: 1 rows)`]);
  }
}

describe('a fresh process', () => {
  it('importing the sqlite module first turns URI filenames on and reads every state in place where it can', async () => {
    const { report, cwd } = await readAll(false);
    expect(report.uri).toBe(true);
    expectRowsSeen(report);
    expect(report.results.map((r) => r.via)).toEqual(['immutable', 'sidecars', 'private-copy', 'sidecars', 'private-copy']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a module that opened a Database before the sqlite module was imported cannot break it', async () => {
    const { report, cwd } = await readAll(true);
    expect(report.uri).toBe(false);
    expectRowsSeen(report);
    // URIs off: the file bytes for a file at rest, a private copy whenever a -wal or -journal exists.
    expect(report.results.map((r) => r.via)).toEqual(['memory-image', 'private-copy', 'private-copy', 'private-copy', 'private-copy']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('no file literally named file:… appears anywhere', () => {
    const literal = (names: string[]): string[] => names.filter((n) => n.split('/').some((part) => part.startsWith('file:')));
    expect(literal(allNames(root))).toEqual([]);
    expect(literal(readdirSync(tmpdir()))).toEqual([]);
    expect(literal(readdirSync(process.cwd()))).toEqual([]);
  });
});
