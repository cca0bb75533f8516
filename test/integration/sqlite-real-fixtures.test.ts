// The real agent databases (Codex 0.171.0, OpenCode 1.18.33) under /work/shared/fixtures/real, read from temp copies:
// as captured (single files at rest) and rebuilt by a real writer into the WAL states they were captured in
// (Codex: everything only in -wal; OpenCode: mixed, an older checkpoint in the main file and newer commits in -wal).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { dbRowsNaming, openReadonly, quoteIdent, tableNames, withReadonlyDb, type IdTable } from '../../src/sqlite/index.js';
import { buildWalState, snapshotDir, type WalFixtureState } from '../helpers/sqlite-wal-states.js';
import { strs } from '../helpers/artifact-strings.js';

const REAL = '/work/shared/fixtures/real';
const fs = new NodeFileSystem();

interface Expected {
  sqlite?: Array<{ db: string }>;
  conversations: Array<{ id: string; db_rows?: Array<{ db: string; table: string; column: string; exact_matches: number }> }>;
}
interface RealDb {
  stage: string;
  rel: string;
  src: string;
  // Per conversation id, the (table, column, count) rows EXPECTED.json says hold it exactly.
  rows: Map<string, Array<{ table: string; column: string; n: number }>>;
}

function realDbs(): RealDb[] {
  if (!existsSync(REAL)) return [];
  const out: RealDb[] = [];
  for (const agent of readdirSync(REAL, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    for (const file of readdirSync(join(REAL, agent)).filter((f) => f.endsWith('.EXPECTED.json'))) {
      const stage = `${agent}/${file.replace('.EXPECTED.json', '')}`;
      const exp = JSON.parse(readFileSync(join(REAL, agent, file), 'utf8')) as Expected;
      for (const { db } of exp.sqlite ?? []) {
        const rows = new Map<string, Array<{ table: string; column: string; n: number }>>();
        for (const c of exp.conversations) {
          rows.set(c.id, (c.db_rows ?? []).filter((r) => r.db === db && r.exact_matches > 0).map((r) => ({ table: r.table, column: r.column, n: r.exact_matches })));
        }
        out.push({ stage, rel: db, src: join(REAL, stage, db), rows });
      }
    }
  }
  return out;
}

const DBS = realDbs();
const WITH_ROWS = DBS.filter((d) => [...d.rows.values()].some((r) => r.length > 0));
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mam-sqlite-real-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function place(d: RealDb, tag: string): string {
  const dir = join(root, tag, d.stage, d.rel, '..');
  mkdirSync(dir, { recursive: true });
  return join(dir, d.rel.split('/').pop() ?? 'x.db');
}

// dbRowsNaming asked about every id table and id column EXPECTED.json names for this database.
function namingOf(d: RealDb, path: string, id: string): Promise<string[]> {
  const all = [...d.rows.values()].flat();
  const idTables: IdTable[] = [...new Set(all.filter((r) => r.column === 'id').map((r) => r.table))];
  const columns = [...new Set(all.filter((r) => r.column !== 'id').map((r) => r.column))];
  return dbRowsNaming(path, id, columns, idTables, { fs }).then(strs);
}

// What dbRowsNaming must answer for each id, from EXPECTED.json's exact matches.
async function expectNamingMatches(d: RealDb, path: string): Promise<void> {
  for (const [id, rows] of d.rows) {
    const got = await namingOf(d, path, id);
    expect(got.sort(), `${d.stage} ${d.rel} ${id}`).toEqual(rows.map((r) => `${path} (${r.table}.${r.column}: ${r.n} rows)`).sort());
  }
}

// A real writer rebuilds the database from the copy: tables, half the tables' rows, a checkpoint when `mixed`,
// the other half, then indexes and triggers (after the rows, so no trigger fires twice).
async function rebuildSql(copy: string, mixed: boolean): Promise<string[]> {
  const schema = await withReadonlyDb(copy, { fs }, ({ db }) => ({
    tables: tableNames(db),
    create: db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid").pluck().all() as string[],
    rest: db.prepare("SELECT sql FROM sqlite_schema WHERE type IN ('index', 'trigger', 'view') AND sql IS NOT NULL ORDER BY rowid").pluck().all() as string[],
  }));
  const fill = (t: string): string => `INSERT INTO main.${quoteIdent(t)} SELECT * FROM src.${quoteIdent(t)}`;
  const half = Math.ceil(schema.tables.length / 2);
  return [
    // better-sqlite3 turns foreign keys on by default; the tables are filled in name order.
    'PRAGMA foreign_keys = OFF',
    `ATTACH DATABASE '${copy.replaceAll("'", "''")}' AS src`,
    ...schema.create,
    ...schema.tables.slice(0, half).map(fill),
    ...(mixed ? ['PRAGMA wal_checkpoint(TRUNCATE)'] : []),
    ...schema.tables.slice(half).map(fill),
    ...schema.rest,
    'DETACH DATABASE src',
  ];
}

describe('the real fixture databases', () => {
  it('are there (so the tests below are not vacuous)', () => {
    expect(DBS.length).toBeGreaterThanOrEqual(30);
    expect(WITH_ROWS.length).toBeGreaterThanOrEqual(14);
  });

  it.each(DBS.map((d) => [`${d.stage} ${d.rel}`, d] as const))('%s opens in place (immutable) and names the rows EXPECTED.json lists', async (_, d) => {
    const path = place(d, 'as-captured');
    copyFileSync(d.src, path);
    const before = snapshotDir(join(path, '..'));
    const h = await openReadonly(path, { fs });
    try {
      expect(h.state).toBe('clean');
      expect(h.via).toBe('immutable');
      expect(tableNames(h.db).length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
    await expectNamingMatches(d, path);
    expect(snapshotDir(join(path, '..'))).toEqual(before);
  });

  const STATES: WalFixtureState[] = ['leftover', 'walonly', 'writer'];
  it.each(WITH_ROWS.flatMap((d) => STATES.map((s) => [`${d.stage} ${d.rel} rebuilt ${s}`, d, s] as const)))(
    '%s: the rows only in -wal are named and the directory is unchanged',
    async (_, d, state) => {
      const copy = place(d, `src-${state}`);
      copyFileSync(d.src, copy);
      const path = place(d, state);
      const fx = await buildWalState(state, path, await rebuildSql(copy, d.stage.startsWith('opencode/')));
      try {
        const before = snapshotDir(join(path, '..'));
        await expectNamingMatches(d, path);
        expect(snapshotDir(join(path, '..'))).toEqual(before);
        // The main file alone (copied away from its sidecars) misses rows: they really live in -wal.
        const alone = place(d, `alone-${state}`);
        copyFileSync(path, alone);
        const missed = [];
        for (const [id, rows] of d.rows) {
          if ((await namingOf(d, alone, id)).length < rows.length) missed.push(id);
        }
        expect(missed.length).toBeGreaterThan(0);
      } finally {
        await fx.stop();
      }
    },
  );
});
