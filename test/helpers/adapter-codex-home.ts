// Synthetic Codex homes laid out like Codex 0.171 writes them (see test/fixtures/real/codex): rollouts whose first line is a
// session_meta record padded like the real ~26 KB one, a state DB with the real `threads` columns that matter, shell
// snapshots and writer locks.
import Database from 'better-sqlite3';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface ThreadSpec {
  id: string;
  cwd: string;
  /** Epoch seconds of the last activity (threads.updated_at; rollout mtime). */
  updated: number;
  archived?: boolean;
  /** Write the rollout (default true). */
  rollout?: boolean;
  /** Bytes of padding in the first line (default ~26 KB like the real CLI). */
  headBytes?: number;
  /** Write the threads row (default true). */
  row?: boolean;
}

/** The real CLI's first-line size, measured on 0.171 (26,812 bytes). */
export const REAL_HEAD_BYTES = 26_000;

/** The `threads` schema the adapter relies on, with the real index on (archived, cwd, …). */
export const THREADS_DDL = [
  'CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL DEFAULT \'\', archived INTEGER NOT NULL DEFAULT 0, updated_at_ms INTEGER, attached_thread_parent_id TEXT)',
  'CREATE INDEX idx_threads_archived_cwd_updated_at_ms ON threads(archived, cwd, updated_at_ms DESC, id DESC)',
  'CREATE TABLE thread_dynamic_tools (thread_id TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY(thread_id, position))',
  'CREATE TABLE thread_spawn_edges (parent_thread_id TEXT NOT NULL, child_thread_id TEXT NOT NULL PRIMARY KEY, status TEXT NOT NULL)',
];

export function codexDir(home: string): string {
  return join(home, '.codex');
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Where the CLI puts a thread's rollout. */
export function rolloutPath(home: string, t: ThreadSpec): string {
  const d = new Date(t.updated * 1000);
  const stamp = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}-${pad2(d.getUTCMinutes())}-${pad2(d.getUTCSeconds())}`;
  const name = `rollout-${stamp}-${t.id}.jsonl`;
  if (t.archived === true) return join(codexDir(home), 'archived_sessions', name);
  return join(codexDir(home), 'sessions', String(d.getUTCFullYear()), pad2(d.getUTCMonth() + 1), pad2(d.getUTCDate()), name);
}

/** A first line like the real one: session_meta with id and cwd first, then the long base instructions. */
export function headLine(id: string, cwd: string, bytes = REAL_HEAD_BYTES): string {
  const payload = { session_id: id, id, timestamp: '2026-11-30T00:55:12.040Z', cwd, originator: 'codex_exec', cli_version: '0.171.0', base_instructions: { text: 'x'.repeat(bytes) } };
  return JSON.stringify({ timestamp: '2026-11-30T00:55:12.093Z', ordinal: 0, type: 'session_meta', payload });
}

export function writeRollout(home: string, t: ThreadSpec): string {
  const path = rolloutPath(home, t);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${headLine(t.id, t.cwd, t.headBytes)}\n{"type":"turn","payload":{"text":"${'y'.repeat(2000)}"}}\n`);
  utimesSync(path, t.updated, t.updated);
  return path;
}

/** SQL statements that create the threads schema and insert the rows (for buildWalState or a direct write). */
export function stateSql(home: string, threads: readonly ThreadSpec[]): string[] {
  const q = (s: string): string => `'${s.replaceAll("'", "''")}'`;
  return [
    ...THREADS_DDL,
    ...threads
      .filter((t) => t.row !== false)
      .map((t) => `INSERT INTO threads (id, rollout_path, created_at, updated_at, cwd, archived, updated_at_ms) VALUES (${q(t.id)}, ${q(rolloutPath(home, t))}, ${t.updated}, ${t.updated}, ${q(t.cwd)}, ${t.archived === true ? 1 : 0}, ${t.updated * 1000})`),
    ...threads.filter((t) => t.row !== false).map((t) => `INSERT INTO thread_dynamic_tools VALUES (${q(t.id)}, 0, 'tool')`),
  ];
}

/** Runs SQL on a database file directly (clean state, journal_mode DELETE). */
export function execSql(path: string, sql: readonly string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    for (const s of sql) db.exec(s);
  } finally {
    db.close();
  }
}

/** Writes a whole home: rollouts, `state_5.sqlite` (unless `db: false`), one snapshot and a lock per thread. */
export function buildCodexHome(home: string, threads: readonly ThreadSpec[], opts: { db?: boolean } = {}): void {
  mkdirSync(codexDir(home), { recursive: true });
  for (const t of threads) {
    if (t.rollout !== false) writeRollout(home, t);
    const snap = join(codexDir(home), 'shell_snapshots', `${t.id}.${t.updated}000000000.sh`);
    mkdirSync(dirname(snap), { recursive: true });
    writeFileSync(snap, 'export OPENAI_API_KEY=sk-secret\n');
    const lock = join(codexDir(home), 'thread-writer-locks', `${t.id}.lock`);
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, '');
  }
  if (opts.db !== false) execSql(join(codexDir(home), 'state_5.sqlite'), stateSql(home, threads));
}

/** A UUID v7-shaped id from a number (time-ordered like the real ones). */
export function v7(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `01a2${hex.slice(0, 4)}-${hex.slice(4, 8)}-7${hex.slice(8, 11)}-8${hex.slice(11, 12)}00-${'0'.repeat(12)}`;
}

/** A fresh UUID v7-shaped id no other process can already be naming. */
export function freshV7(): string {
  const u = crypto.randomUUID();
  return `${u.slice(0, 14)}7${u.slice(15)}`;
}
