import type Database from 'better-sqlite3';
import { recordedId } from './row-agent.js';
import type { SessionRow } from './session-row.js';

/**
 * `PRAGMA user_version` of a mirror in this layout ("mam" + 1); any other value means the tables are replaced.
 * @public
 */
export const MIRROR_VERSION = 0x6d616d01;

const COLUMNS = [
  'name', 'seq', 'status', 'agent', 'role', 'herdr_server', 'herdr_session', 'herdr_workspace',
  'herdr_session_created_at', 'herdr_session_epoch', 'own_id', 'session_id_source', 'session_id_verified',
  'pane_cwd', 'pane_pid', 'pane_cmd', 'row_json',
] as const;

const SCHEMA = `
  DROP TABLE IF EXISTS sessions;
  DROP TABLE IF EXISTS orchestrator_uuids;
  DROP TABLE IF EXISTS registry_meta;
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
  PRAGMA user_version = ${MIRROR_VERSION};
`;

/**
 * Creates the mirror's tables unless they are already in this layout (another layout, e.g. an older tool's, is replaced).
 * @public
 */
export function ensureMirrorSchema(db: Database.Database): void {
  if (db.pragma('user_version', { simple: true }) === MIRROR_VERSION) return;
  db.transaction(() => db.exec(SCHEMA)).immediate();
}

function text(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * A row's mirror columns, in the order of the `sessions` table.
 * @public
 */
export function rowColumns(row: SessionRow, seq: number): Array<string | number | null> {
  const pane = row.pane ?? undefined;
  const verified = row.session_id_verified;
  return [
    row.name, seq, text(row.status), text(row.agent), text(row.role), text(row.herdr_server), text(row.herdr_session),
    text(row.herdr_workspace), text(row.herdr_session_created_at), num(row.herdr_session_epoch), recordedId(row),
    text(row.session_id_source), typeof verified === 'boolean' ? Number(verified) : null,
    text(pane?.cwd), num(pane?.pid), text(pane?.cmd), JSON.stringify(row),
  ];
}

/**
 * The prepared statements of a mirror connection.
 * @public
 */
export interface MirrorStatements {
  getMeta: Database.Statement<[string], string>;
  setMeta: Database.Statement<[string, string]>;
  clearRows: Database.Statement<[]>;
  deleteRow: Database.Statement<[string]>;
  maxSeq: Database.Statement<[], number>;
  upsert: Database.Statement<Array<string | number | null>>;
  clearOrchestrators: Database.Statement<[]>;
  addOrchestrator: Database.Statement<[number, string]>;
}

/**
 * The statements a mirror update uses, prepared on one connection.
 * @public
 */
export function mirrorStatements(db: Database.Database): MirrorStatements {
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
