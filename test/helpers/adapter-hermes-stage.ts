// A synthetic Hermes home in the reference layout (no real CLI could be installed): one shared `state.db` with
// `sessions(id, cwd, started_at REAL)` and `messages(session_id, …)`, built by a real SQLite writer in any WAL state,
// plus the oracle of which rows name which conversation.
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { withReadonlyDb } from '../../src/sqlite/open-readonly.js';
import { freshId } from './adapter-agy-files.js';
import { type WalFixture, type WalFixtureState, buildWalState } from './sqlite-wal-states.js';

/** One session of the stage. */
export interface HermesStageSession {
  id: string;
  workspace: string;
  startedAt: number;
  /** Rows naming it, as residual reports them (`<table>.<col>: N rows`). */
  rows: Array<{ table: string; column: string; count: number }>;
}

/** The stage and its oracle. */
export interface HermesStage {
  home: string;
  db: string;
  wsA: string;
  wsB: string;
  sessions: HermesStageSession[];
  fixture: WalFixture;
}

/** The reference schema. */
export const HERMES_SCHEMA = [
  'CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, started_at REAL, title TEXT)',
  'CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)',
];

function q(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** SQL inserting a session and `messages` messages. */
export function sessionSql(id: string, cwd: string, startedAt: number, messages: number): string[] {
  const out = [`INSERT INTO sessions VALUES (${q(id)}, ${q(cwd)}, ${startedAt}, 'title of ${id.slice(0, 8)}')`];
  for (let i = 0; i < messages; i += 1) out.push(`INSERT INTO messages (session_id, role, content) VALUES (${q(id)}, 'user', 'message ${i}')`);
  return out;
}

const T = 1_900_000_000;

/** Builds the stage under `root` with `state.db` in the given WAL state. */
export async function buildHermesStage(root: string, state: WalFixtureState = 'leftover'): Promise<HermesStage> {
  const home = join(root, 'home');
  const wsA = join(root, 'ws-a');
  const wsB = join(root, 'ws b');
  for (const d of [join(home, '.hermes'), wsA, wsB]) mkdirSync(d, { recursive: true });
  const spec: Array<[string, string, number, number]> = [
    [freshId(), wsA, T + 60.5, 3],
    [freshId(), wsA, T, 1],
    [freshId(), wsA, T - 86_400, 2],
    [freshId(), wsB, T + 30, 2],
    [freshId(), wsB, T + 90, 0],
  ];
  const sql = [...HERMES_SCHEMA, ...spec.flatMap(([id, cwd, at, n]) => sessionSql(id, cwd, at, n))];
  // A session id of no Hermes shape (upper-case hex is not Hermes' stamp): never a candidate, never touched.
  sql.push(...sessionSql('20260101_120000_ABCDEF', wsA, T + 500, 1));
  const db = join(home, '.hermes', 'state.db');
  // Fresh ids, on the writer's command line: hermes-wal's verdict is that such a writer names the conversation.
  const fixture = await buildWalState(state, db, sql, { sqlOnCommandLine: true });
  writeFileSync(join(home, '.hermes', 'config.yaml'), 'model: hermes-4\n');
  return {
    home,
    db,
    wsA,
    wsB,
    fixture,
    sessions: spec.map(([id, workspace, startedAt, n]) => ({
      id,
      workspace,
      startedAt,
      rows: [...(n > 0 ? [{ table: 'messages', column: 'session_id', count: n }] : []), { table: 'sessions', column: 'id', count: 1 }],
    })),
  };
}

/** Every row of every table, read through the library's read-only opener (the database's directory untouched). */
export function dumpRows(db: string): Promise<Record<string, unknown[]>> {
  return withReadonlyDb(db, { fs: new NodeFileSystem() }, (h) => {
    const tables = h.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(tables.map((t) => [t, h.db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all()]));
  });
}

/** Writes a clean (rollback-journal, no sidecar) database from SQL statements, for unit tests. */
export function writeHermesDb(path: string, sql: readonly string[]): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const conn = new Database(path);
  try {
    for (const s of sql) conn.exec(s);
  } finally {
    conn.close();
  }
}
