// Materialises a Hermes stage of test/fixtures/real/hermes (written by Hermes 0.19.0's own SessionDB, rooted at
// /home/dev, HERMES_HOME=/home/dev/.hermes) under a new root: every /home/dev in text files and in SQLite text columns
// names the new root. The raw variant keeps its state: rows still only in `state.db-wal` (the rewrite is appended to
// the WAL and never checkpointed), the checkpointed variant stays a single file.
import Database from 'better-sqlite3';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HERMES_FIXTURES = join(import.meta.dirname, '../fixtures/real/hermes');
const OLD_ROOT = '/home/dev';

export const HERMES_STAGES = ['01-two-sessions', '02-compressed', '03-delegate', '04-after-hermes-delete', '04b-delete-delegate-parent', '05-uuid-session'] as const;
export type HermesStageName = (typeof HERMES_STAGES)[number];
export type HermesVariant = 'raw' | 'checkpointed';

/** The real `sessions` table's CREATE statements (the table and its indexes), as Hermes wrote them in the fixtures. */
export function realSessionsSchema(): string[] {
  const db = new Database(join(HERMES_FIXTURES, '03-delegate/home-checkpointed/.hermes/state.db'), { readonly: true });
  try {
    return db.prepare("SELECT sql FROM sqlite_schema WHERE tbl_name = 'sessions' AND sql IS NOT NULL").pluck().all() as string[];
  } finally {
    db.close();
  }
}

export const IDS = JSON.parse(readFileSync(join(HERMES_FIXTURES, 'SESSIONS.json'), 'utf8')) as Record<'a1' | 'a2' | 'b1' | 'a3_root' | 'a3_child' | 'a4' | 'd1' | 'acp', string>;

export interface HermesRealStage {
  /** The new root standing for /home/dev. */
  root: string;
  /** HERMES_HOME (`<root>/.hermes`). */
  hermesHome: string;
  /** `<hermesHome>/state.db`. */
  db: string;
  /** The two workspaces (created as directories). */
  wsA: string;
  wsB: string;
  /** EXPECTED.json as captured (paths still under /home/dev). */
  expected: HermesExpected;
  /** The context every adapter call takes. */
  ctx: { workspace: string; home: string; env: Record<string, string> };
}

export interface HermesExpected {
  workspaces: Record<'wsA' | 'wsB', Record<string, unknown> & { path: string }>;
  sessions: Record<string, {
    exists_in_sessions_table: boolean;
    db_references_checkpointed?: Array<{ table: string; column: string; rows_containing: number; rows_equal: number }>;
    files_checkpointed_copy?: Array<{ file: string; id_in_name: boolean }>;
  }>;
  [k: string]: unknown;
}

function rewriteSqlite(path: string, root: string, raw: boolean): void {
  // Raw: a read-only guard outlives the writer, so no close checkpoints, and autocheckpoint is off.
  const guard = raw ? new Database(path, { readonly: true }) : undefined;
  guard?.prepare('SELECT count(*) FROM sqlite_schema').get();
  const db = new Database(path);
  try {
    db.pragma('wal_autocheckpoint = 0');
    db.exec('BEGIN');
    for (const col of ['cwd', 'git_repo_root', 'model_config']) {
      db.prepare(`UPDATE sessions SET ${col} = replace(${col}, ?, ?) WHERE instr(${col}, ?) > 0`).run(OLD_ROOT, root, OLD_ROOT);
    }
    db.exec('COMMIT');
  } finally {
    db.close();
    guard?.close();
  }
}

function rewriteFiles(dir: string, root: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) rewriteFiles(p, root);
    else if (e.isFile() && !e.name.startsWith('state.db')) {
      const st = statSync(p);
      const text = readFileSync(p, 'utf8');
      if (text.includes(OLD_ROOT)) writeFileSync(p, text.split(OLD_ROOT).join(root));
      utimesSync(p, st.atime, st.mtime);
    }
  }
}

/** Copies `stage` (its raw or checkpointed `.hermes`) to `<root>/.hermes`, rewritten, with the workspaces created. */
export function materializeHermesStage(stage: HermesStageName, root: string, variant: HermesVariant = 'checkpointed'): HermesRealStage {
  const hermesHome = join(root, '.hermes');
  const from = join(HERMES_FIXTURES, stage, variant === 'raw' ? 'home' : 'home-checkpointed', '.hermes');
  cpSync(from, hermesHome, { recursive: true, preserveTimestamps: true });
  const db = join(hermesHome, 'state.db');
  rewriteSqlite(db, root, variant === 'raw');
  rewriteFiles(hermesHome, root);
  const wsA = join(root, 'ws-hermes-a');
  const wsB = join(root, 'ws-hermes-b');
  for (const d of [wsA, wsB, join(root, 'home')]) mkdirSync(d, { recursive: true });
  const expected = JSON.parse(readFileSync(join(HERMES_FIXTURES, stage, 'EXPECTED.json'), 'utf8')) as HermesExpected;
  return { root, hermesHome, db, wsA, wsB, expected, ctx: { workspace: wsA, home: join(root, 'home'), env: { HERMES_HOME: hermesHome } } };
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return `'${v.replaceAll("'", "''")}'`;
  if (Buffer.isBuffer(v)) return `X'${v.toString('hex')}'`;
  throw new Error(`unexpected value ${String(v)}`);
}

/**
 * The real schema and rows of a checkpointed stage as SQL (tables, indexes, the FTS5 tables and their triggers, then the
 * rows: the triggers fill the FTS tables), with /home/dev rewritten to `root`: for building any WAL state with a real writer.
 */
export function realHermesSql(stage: HermesStageName, root: string): string[] {
  const conn = new Database(join(HERMES_FIXTURES, stage, 'home-checkpointed', '.hermes', 'state.db'), { readonly: true });
  try {
    const schema = conn.prepare("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid").all() as Array<{ type: string; name: string; sql: string }>;
    const shadow = /^messages_fts(?:_trigram|_cjk)?_(?:data|idx|content|docsize|config)$/;
    const out = schema.filter((s) => !shadow.test(s.name) && s.name !== 'sqlite_sequence').map((s) => s.sql);
    for (const table of ['schema_version', 'sessions', 'messages', 'session_model_usage']) {
      for (const row of conn.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all() as Record<string, unknown>[]) {
        const cols = Object.keys(row);
        const vals = cols.map((c) => (typeof row[c] === 'string' ? literal((row[c] as string).split(OLD_ROOT).join(root)) : literal(row[c])));
        out.push(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${vals.join(', ')})`);
      }
    }
    return out;
  } finally {
    conn.close();
  }
}
