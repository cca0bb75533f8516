import type BetterSqlite3 from 'better-sqlite3';
import Database from '../sqlite/driver.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import { recordedIdIn } from './row-agent.js';
import type { SessionRow } from './session-row.js';

/**
 * `PRAGMA user_version` of a mirror in this layout ("mam" + 1); a database with tables and any other value is not a mirror.
 * @public
 */
export const MIRROR_VERSION = 0x6d616d01;

const COLUMNS = [
  'name', 'seq', 'status', 'agent', 'role', 'herdr_server', 'herdr_session', 'herdr_workspace',
  'herdr_session_created_at', 'herdr_session_epoch', 'own_id', 'session_id_source', 'session_id_verified',
  'pane_cwd', 'pane_pid', 'pane_cmd', 'row_json',
] as const;

// Never a DROP: the tables are created only in a database that has none (see mirrorSchemaState).
const SCHEMA = `
  CREATE TABLE sessions (
    name TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    status TEXT, agent TEXT, role TEXT,
    herdr_server TEXT, herdr_session TEXT, herdr_workspace TEXT,
    herdr_session_created_at TEXT, herdr_session_epoch NUMERIC,
    own_id TEXT, session_id_source TEXT, session_id_verified INTEGER,
    pane_cwd TEXT, pane_pid INTEGER, pane_cmd TEXT,
    row_json TEXT NOT NULL
  );
  CREATE INDEX sessions_seq ON sessions(seq);
  CREATE TABLE orchestrator_uuids (seq INTEGER PRIMARY KEY, uuid TEXT NOT NULL);
  CREATE TABLE registry_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

const SCHEMA_ROWS = 'SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name';

let expectedRows: string | undefined;
// The schema rows of a mirror, as SQLite records them: made once from SCHEMA in an in-memory database.
function mirrorRows(): string {
  if (expectedRows === undefined) {
    const mem = new Database(':memory:');
    try {
      mem.exec(SCHEMA);
      expectedRows = JSON.stringify(mem.prepare(SCHEMA_ROWS).raw(true).all());
    } finally {
      mem.close();
    }
  }
  return expectedRows;
}

/**
 * What a database opened as the mirror holds: `mirror` (exactly the mirror's tables, in this layout), `empty` (no table,
 * index, view or trigger at all, and no other application's `user_version`), or `foreign` (anything else: another
 * application's database, or a mirror someone added to) — which is never changed.
 * @public
 */
export function mirrorSchemaState(db: BetterSqlite3.Database): 'mirror' | 'empty' | 'foreign' {
  const version = db.pragma('user_version', { simple: true });
  const rows = db.prepare(SCHEMA_ROWS).raw(true).all();
  if (rows.length === 0) return version === 0 || version === MIRROR_VERSION ? 'empty' : 'foreign';
  return version === MIRROR_VERSION && JSON.stringify(rows) === mirrorRows() ? 'mirror' : 'foreign';
}

/**
 * Thrown by {@link ensureMirrorSchema} for a database that is not the mirror (see {@link mirrorSchemaState}).
 * @public
 */
export class ForeignMirrorDatabase extends Error {
  /** Builds it with what was found. */
  constructor(readonly found: string) {
    super(`not the registry mirror: ${found}`);
  }
}

/** What a database holds, in words: its table names and `user_version`. */
export function describeTables(db: BetterSqlite3.Database): string {
  const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck(true).all() as string[];
  const version = String(db.pragma('user_version', { simple: true }));
  return `tables ${names.length === 0 ? 'none' : names.join(', ')}, user_version ${version}`;
}

/**
 * Creates the mirror's tables in a database that has none; a database in the mirror's layout is left as it is, and any
 * other (another application's, e.g. one with a `sessions` table of its own) throws {@link ForeignMirrorDatabase} with
 * nothing changed. Runs in one immediate transaction, so the look and the creation see the same file.
 * @public
 */
export function ensureMirrorSchema(db: BetterSqlite3.Database): void {
  if (db.pragma('user_version', { simple: true }) === MIRROR_VERSION && mirrorSchemaState(db) === 'mirror') return;
  db.transaction(() => {
    const state = mirrorSchemaState(db);
    if (state === 'foreign') throw new ForeignMirrorDatabase(describeTables(db));
    if (state === 'empty') db.exec(`${SCHEMA}\n  PRAGMA user_version = ${MIRROR_VERSION};`);
  }).immediate();
}

function text(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * A row's mirror columns, in the order of the `sessions` table (`own_id` under the own key of its agent, one of `agents`).
 * @public
 */
export function rowColumns(row: SessionRow, seq: number, agents?: AgentCatalog<string>): Array<string | number | null> {
  const pane = row.pane ?? undefined;
  const verified = row.session_id_verified;
  return [
    row.name, seq, text(row.status), text(row.agent), text(row.role), text(row.herdr_server), text(row.herdr_session),
    text(row.herdr_workspace), text(row.herdr_session_created_at), num(row.herdr_session_epoch), recordedIdIn(row, agents),
    text(row.session_id_source), typeof verified === 'boolean' ? Number(verified) : null,
    text(pane?.cwd), num(pane?.pid), text(pane?.cmd), JSON.stringify(row),
  ];
}

/**
 * The prepared statements of a mirror connection.
 * @public
 */
export interface MirrorStatements {
  getMeta: BetterSqlite3.Statement<[string], string>;
  setMeta: BetterSqlite3.Statement<[string, string]>;
  clearRows: BetterSqlite3.Statement<[]>;
  deleteRow: BetterSqlite3.Statement<[string]>;
  maxSeq: BetterSqlite3.Statement<[], number>;
  upsert: BetterSqlite3.Statement<Array<string | number | null>>;
  clearOrchestrators: BetterSqlite3.Statement<[]>;
  addOrchestrator: BetterSqlite3.Statement<[number, string]>;
}

/**
 * The statements a mirror update uses, prepared on one connection.
 * @public
 */
export function mirrorStatements(db: BetterSqlite3.Database): MirrorStatements {
  const names = COLUMNS.join(', ');
  const marks = COLUMNS.map(() => '?').join(', ');
  const updates = COLUMNS.filter((c) => c !== 'name' && c !== 'seq').map((c) => `${c} = excluded.${c}`).join(', ');
  return {
    getMeta: db.prepare<[string], string>('SELECT value FROM registry_meta WHERE key = ?').pluck(true),
    setMeta: db.prepare('INSERT INTO registry_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
    clearRows: db.prepare('DELETE FROM sessions'),
    deleteRow: db.prepare('DELETE FROM sessions WHERE name = ?'),
    maxSeq: db.prepare<[], number>('SELECT COALESCE(MAX(seq), -1) FROM sessions').pluck(true),
    // An existing row keeps its seq (its place in YAML order); a new one takes the seq given.
    upsert: db.prepare<Array<string | number | null>>(`INSERT INTO sessions (${names}) VALUES (${marks}) ON CONFLICT(name) DO UPDATE SET ${updates}`),
    clearOrchestrators: db.prepare('DELETE FROM orchestrator_uuids'),
    addOrchestrator: db.prepare('INSERT INTO orchestrator_uuids (seq, uuid) VALUES (?, ?)'),
  };
}
