// Real OpenCode stages for the adapter's tests: a materialised stage with its context, file hashes of the home, and the
// "mixed" WAL state the captures were taken in (an older checkpoint in the main file, newer commits only in -wal).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { HomeDiscoveryContext } from '../../src/agents/types.js';
import { v1SessionSql, writeDb } from './adapter-opencode-db.js';
import { materializeStage, type RealStage } from './real-stage.js';
import { buildWalState, type WalFixture } from './sqlite-wal-states.js';

export const DB_REL = '.local/share/opencode/opencode.db';

/** A materialised stage plus an empty bin dir (PATH) so no real `opencode` is ever run. */
export interface OpencodeStage extends RealStage {
  db: string;
  bin: string;
  ctx(workspace: string, extra?: Partial<HomeDiscoveryContext>): HomeDiscoveryContext;
}

export function opencodeStage(stage: string, root: string): OpencodeStage {
  const s = materializeStage(stage, root);
  const bin = join(root, 'empty-bin');
  mkdirSync(bin, { recursive: true });
  const env = { ...s.env, PATH: bin };
  return { ...s, db: s.abs(DB_REL), bin, ctx: (workspace, extra = {}) => ({ workspace, home: s.home, env, ...extra }) };
}

/** sha256 of every file under `dir` except those `skip` accepts (relative path → hash), for byte-identity checks. */
export function hashTree(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (e.isDirectory()) walk(p);
      else if (!skip(rel)) out.set(rel, e.isFile() ? createHash('sha256').update(readFileSync(p)).digest('hex') : `(${e.isSymbolicLink() ? 'link' : 'other'})`);
    }
  };
  walk(dir);
  return out;
}

/** True for the database and its sidecars (the only files a purge may change). */
export function isDbFile(rel: string): boolean {
  return rel === DB_REL || rel.startsWith(`${DB_REL}-`);
}

function deleteNaming(path: string, id: string): void {
  const db = new Database(path);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    for (const t of tables) {
      const cols = (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => c.name);
      for (const c of cols) db.prepare(`DELETE FROM "${t}" WHERE "${c}" = ?`).run(id);
    }
    db.exec('VACUUM');
  } finally {
    db.close();
  }
}

/**
 * Rebuilds the stage's database in its captured "mixed" state with a REAL writer that is then killed (leftover: -wal and
 * -shm stay): `onlyInWal` sessions are committed only to -wal; `deletedInWal` sessions (with rows in every table, in
 * `deletedDir`) are in the main file and deleted only in -wal.
 */
export async function mixedState(
  s: OpencodeStage,
  opts: { onlyInWal?: string[]; deletedInWal?: string[]; deletedDir?: string; state?: 'leftover' | 'walonly' },
): Promise<WalFixture> {
  const full = join(s.root, 'full-copy.db');
  copyFileSync(s.db, full);
  for (const id of opts.onlyInWal ?? []) deleteNaming(s.db, id);
  const dir = opts.deletedDir ?? '/nowhere';
  writeDb(s.db, (opts.deletedInWal ?? []).flatMap((id, n) => v1SessionSql({ id, directory: dir, created: 1795999000000 + n })));
  const sql: string[] = [];
  if ((opts.onlyInWal ?? []).length > 0) {
    sql.push(`ATTACH '${full.replaceAll("'", "''")}' AS src`);
    const tables = ['session', 'message', 'part', 'session_message', 'session_input', 'session_context_epoch', 'session_share', 'todo', 'event_sequence', 'event'];
    for (const id of opts.onlyInWal ?? []) {
      for (const t of tables) {
        const col = t === 'session' ? 'id' : t.startsWith('event') ? 'aggregate_id' : 'session_id';
        sql.push(`INSERT INTO main."${t}" SELECT * FROM src."${t}" WHERE "${col}" = '${id}'`);
      }
    }
    sql.push('DETACH src');
  }
  for (const id of opts.deletedInWal ?? []) {
    for (const [t, c] of [['part', 'session_id'], ['message', 'session_id'], ['session_message', 'session_id'], ['session_input', 'session_id'], ['session_context_epoch', 'session_id'], ['session_share', 'session_id'], ['todo', 'session_id'], ['event', 'aggregate_id'], ['event_sequence', 'aggregate_id'], ['session', 'id']]) {
      sql.push(`DELETE FROM "${t}" WHERE "${c}" = '${id}'`);
    }
  }
  const fx = await buildWalState(opts.state ?? 'leftover', s.db, sql);
  rmSync(full, { force: true });
  return fx;
}

/** The session ids a reader of the main file ALONE sees (what a careless reader would report), read from a private copy. */
export function idsInMainFileAlone(db: string, scratch: string): string[] {
  const copy = join(scratch, `main-alone-${process.pid}.db`);
  // The WAL flag cleared: the copy is read as the plain file it is, with no -wal to consult.
  const bytes = readFileSync(db);
  bytes[18] = 1;
  bytes[19] = 1;
  writeFileSync(copy, bytes);
  try {
    const h = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      return (h.prepare('SELECT id FROM session ORDER BY id').pluck().all() as string[]).sort();
    } finally {
      h.close();
    }
  } finally {
    rmSync(copy, { force: true });
  }
}
