// OpenCode databases for the adapter's tests: the real 1.18 schema (read from a real fixture), a 2.x `session_v2`
// schema as the reference system describes it, and SQL that inserts one session with rows in every table naming it.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { REAL_FIXTURES } from './real-stage.js';

const FIXTURE_DB = join(REAL_FIXTURES, 'opencode/03-two-sessions-before-delete/.local/share/opencode/opencode.db');

let v1: string[] | undefined;

/** The CREATE statements of the real OpenCode 1.18.33 database (tables, then indexes); read on first use. */
export function v1Schema(): string[] {
  v1 ??= (() => {
    const db = new Database(FIXTURE_DB, { readonly: true, fileMustExist: true });
    try {
      return db.prepare("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type = 'index', rowid").pluck().all() as string[];
    } finally {
      db.close();
    }
  })();
  return v1;
}

/** A 2.x schema: `session_v2` (+ a per-session message table), as a fresh 2.x database has it (no `session`). */
export const V2_SCHEMA: string[] = [
  'CREATE TABLE session_v2 (id TEXT PRIMARY KEY, parent_id TEXT, directory TEXT NOT NULL, title TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL)',
  'CREATE INDEX session_v2_parent_idx ON session_v2 (parent_id)',
  'CREATE TABLE message_v2 (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, data TEXT NOT NULL)',
];

/** A database whose layout the adapter does not know (no `session` and no `session_v2` table). */
export const UNKNOWN_SCHEMA: string[] = ['CREATE TABLE conversations (id TEXT PRIMARY KEY, cwd TEXT, created INTEGER)'];

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A plausible OpenCode id; a larger `n` sorts first (OpenCode ids sort newest first). */
export function sesId(n: number, salt = 0): string {
  const hex = (0xffffffffffff - n).toString(16).padStart(12, '0');
  let tail = '';
  let x = n * 7919 + salt * 104729 + 12345;
  for (let i = 0; i < 14; i++) {
    tail += B62[x % 62];
    x = Math.floor(x / 62) + (i + 1) * 31 + salt;
  }
  return `ses_${hex}${tail}`;
}

const lit = (s: string): string => `'${s.replaceAll("'", "''")}'`;

export interface SessionSpec {
  id: string;
  directory: string;
  /** Creation time in ms. */
  created: number;
  parent?: string;
}

/** INSERTs for one 1.x session with a row in every table that names a session (what OpenCode 1.18 writes, and more). */
export function v1SessionSql(s: SessionSpec): string[] {
  const { id, created: t } = s;
  const m = `msg_${id.slice(4)}`;
  const parent = s.parent === undefined ? 'NULL' : lit(s.parent);
  return [
    `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (${lit(id)}, 'global', ${parent}, 'slug', ${lit(s.directory)}, 'title', '1.18.33', ${t}, ${t})`,
    `INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (${lit(m)}, ${lit(id)}, ${t}, ${t}, '{}')`,
    `INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (${lit(`prt_${id.slice(4)}`)}, ${lit(m)}, ${lit(id)}, ${t}, ${t}, '{}')`,
    `INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (${lit(`sm_${id}`)}, ${lit(id)}, 'user', 1, ${t}, ${t}, '{}')`,
    `INSERT INTO session_input (id, session_id, prompt, delivery, admitted_seq, time_created) VALUES (${lit(`si_${id}`)}, ${lit(id)}, 'hi', 'now', 1, ${t})`,
    `INSERT INTO session_context_epoch (session_id, baseline, snapshot, baseline_seq) VALUES (${lit(id)}, 'b', 's', 1)`,
    `INSERT INTO session_share (session_id, id, secret, url, time_created, time_updated) VALUES (${lit(id)}, 'share', 'x', 'u', ${t}, ${t})`,
    `INSERT INTO todo (session_id, content, status, priority, position, time_created, time_updated) VALUES (${lit(id)}, 'c', 'pending', 'low', 0, ${t}, ${t})`,
    `INSERT INTO event_sequence (aggregate_id, seq) VALUES (${lit(id)}, 1)`,
    `INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (${lit(`evt_${id}`)}, ${lit(id)}, 1, 'session.created', ${lit(JSON.stringify({ id }))})`,
  ];
}

/** INSERTs for one 2.x session (and a message naming it). */
export function v2SessionSql(s: SessionSpec): string[] {
  const parent = s.parent === undefined ? 'NULL' : lit(s.parent);
  return [
    `INSERT INTO session_v2 (id, parent_id, directory, title, time_created, time_updated) VALUES (${lit(s.id)}, ${parent}, ${lit(s.directory)}, 't', ${s.created}, ${s.created})`,
    `INSERT INTO message_v2 (id, session_id, data) VALUES (${lit(`msg2_${s.id}`)}, ${lit(s.id)}, '{}')`,
  ];
}

/** Creates `path` (journal_mode=DELETE, closed) from statements. */
export function writeDb(path: string, sql: readonly string[]): void {
  const db = new Database(path);
  try {
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN');
    for (const s of sql) db.exec(s);
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}

/** Every row of every table (sorted JSON lines), optionally leaving out rows that name one of `ids` exactly in any column. */
export function dumpRows(path: string, ids: readonly string[] = []): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    const out: string[] = [];
    for (const t of tables) {
      for (const row of db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]) {
        if (Object.values(row).some((v) => typeof v === 'string' && ids.includes(v))) continue;
        out.push(`${t} ${JSON.stringify(row)}`);
      }
    }
    return out.sort();
  } finally {
    db.close();
  }
}
