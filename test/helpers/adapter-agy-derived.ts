// Materialises the derived agy fixture (test/fixtures/derived/agy: a home built to the evidence of real agy 1.0–1.3
// installs, rooted at /home/dev) under a new root: text files, SQLite text columns and the workspace URIs inside the
// conversations' protobuf metadata records name the new root; each database's mtime is its EXPECTED last_modified.
import Database from 'better-sqlite3';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readProtoFields } from '../../src/agents/agy/protobuf-wire.js';
import type { ProtoField } from '../../src/agents/agy/protobuf-wire.js';
import { encodeProto } from './adapter-agy-proto.js';

export const AGY_DERIVED = join(import.meta.dirname, '../fixtures/derived/agy');
const OLD_ROOT = '/home/dev';

/** EXPECTED.json of the derived fixture (the parts the tests read). */
export interface AgyExpected {
  workspaces: Record<string, { top_level_newest_first: string[]; all_newest_first_including_subagents: string[]; last_conversations_json_value: string }>;
  conversations: Record<
    string,
    { workspace: string; parent_conversation_id: string | null; nesting_depth: number; forked_from: string | null; last_modified: string; own_paths: string[]; db_rows: Array<Record<string, unknown> & { db: string; table: string }> }
  >;
}

/** The materialised fixture. */
export interface AgyDerivedStage {
  /** The new root standing for /home/dev. */
  root: string;
  /** The home (`<root>/home`), whose `.gemini` is GEMINI_HOME's default. */
  home: string;
  /** `<home>/.gemini/antigravity-cli`. */
  cli: string;
  /** EXPECTED.json with every /home/dev rewritten (own_paths stay relative to the CLI root). */
  expected: AgyExpected;
  /** The absolute path of a path relative to the CLI root. */
  abs(rel: string): string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function rewriteString(bytes: Uint8Array, rewrite: (s: string) => string): Uint8Array {
  try {
    return new TextEncoder().encode(rewrite(utf8.decode(bytes)));
  } catch {
    return bytes;
  }
}

/** Rewrites the workspace URIs of a metadata record (fields 1 → 1 and 7), leaving every other field as it was. */
export function rewriteTrajectoryBlob(blob: Uint8Array, rewrite: (s: string) => string): Uint8Array {
  const fields = readProtoFields(blob);
  if (fields === null) return blob;
  const out: ProtoField[] = fields.map((f) => {
    if (f.wire !== 'bytes') return f;
    if (f.field === 7) return { ...f, value: rewriteString(f.value, rewrite) };
    if (f.field !== 1) return f;
    const inner = readProtoFields(f.value);
    if (inner === null) return f;
    return { ...f, value: encodeProto(inner.map((g) => (g.field === 1 && g.wire === 'bytes' ? { ...g, value: rewriteString(g.value, rewrite) } : g))) };
  });
  return encodeProto(out);
}

function rewriteDb(path: string, rewrite: (s: string) => string): void {
  const db = new Database(path);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    if (tables.includes('trajectory_metadata_blob')) {
      for (const r of db.prepare('SELECT id, data FROM trajectory_metadata_blob').all() as Array<{ id: string; data: Buffer }>) {
        db.prepare('UPDATE trajectory_metadata_blob SET data = ? WHERE id = ?').run(Buffer.from(rewriteTrajectoryBlob(r.data, rewrite)), r.id);
      }
    }
    if (tables.includes('conversation_summaries')) {
      for (const r of db.prepare('SELECT conversation_id AS id, workspace_uris AS w FROM conversation_summaries').all() as Array<{ id: string; w: string }>) {
        db.prepare('UPDATE conversation_summaries SET workspace_uris = ? WHERE conversation_id = ?').run(rewrite(r.w), r.id);
      }
    }
    // Checkpointed and back to a clean main file: the tests build the other WAL states themselves.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

function walk(dir: string, visit: (path: string) => void): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, visit);
    else visit(p);
  }
}

/** Copies the fixture home under `root` (an empty real dir) and rewrites it; creates the two workspaces. */
export function materialiseAgyDerived(root: string): AgyDerivedStage {
  const rewrite = (s: string): string => s.split(OLD_ROOT).join(root);
  const home = join(root, 'home');
  cpSync(join(AGY_DERIVED, 'home'), home, { recursive: true });
  const cli = join(home, '.gemini', 'antigravity-cli');
  walk(home, (p) => chmodSync(p, 0o600));
  const dirs: string[] = [];
  const collect = (d: string): void => {
    dirs.push(d);
    for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) collect(join(d, e.name));
  };
  collect(home);
  for (const d of dirs) chmodSync(d, 0o700);
  walk(home, (p) => {
    if (p.endsWith('.db')) rewriteDb(p, rewrite);
    else if (p.endsWith('.json') || p.endsWith('.jsonl')) writeFileSync(p, rewrite(readFileSync(p, 'utf8')));
  });
  const expected = JSON.parse(rewrite(readFileSync(join(AGY_DERIVED, 'EXPECTED.json'), 'utf8'))) as AgyExpected;
  for (const ws of Object.keys(expected.workspaces)) mkdirSync(ws, { recursive: true });
  for (const [id, c] of Object.entries(expected.conversations)) {
    const db = join(cli, 'conversations', `${id}.db`);
    const t = Date.parse(c.last_modified) / 1000;
    if (statSync(db).isFile()) utimesSync(db, t, t);
  }
  return { root, home, cli, expected, abs: (rel) => join(cli, rel) };
}
