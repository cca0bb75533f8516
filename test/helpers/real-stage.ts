// Materialises a stage of test/fixtures/real (files written by the real agent CLIs, rooted at /home/dev) under a new root:
// every path, Claude project key, text file and SQLite text column that named /home/dev now names the new root.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';

export const REAL_FIXTURES = join(import.meta.dirname, '../fixtures/real');
const OLD_ROOT = '/home/dev';

export interface ExpectedConversation {
  agent: string;
  id: string;
  workspace: string | null;
  status: 'present' | 'leftovers-only' | 'mentioned-only';
  transcript?: string | null;
  files: string[];
  db_rows: { db: string; table: string; column: string; count: number; exact_matches: number }[];
  shared_files_mentioning_id: string[];
  files_of_other_conversations_mentioning_id: string[];
  workspaces_seen?: string[];
}

export interface Expected {
  stage: string;
  agent: string;
  env: Record<string, string>;
  sqlite: { db: string; original_state: string }[];
  empty_dirs: string[];
  conversations: ExpectedConversation[];
  [k: string]: unknown;
}

export interface RealStage {
  /** The new root standing for /home/dev. */
  root: string;
  /** The CLI's HOME under the new root. */
  home: string;
  /** The stage's env, rewritten. */
  env: Record<string, string>;
  /** EXPECTED.json, every string rewritten (paths in `files` stay relative to `home`). */
  expected: Expected;
  /** Absolute path of a path relative to `home`. */
  abs(rel: string): string;
}

export function readExpected(stage: string): Expected {
  return JSON.parse(readFileSync(join(REAL_FIXTURES, `${stage}.EXPECTED.json`), 'utf8')) as Expected;
}

/** Every stage of an agent, e.g. `realStages('codex')` → ['codex/01-after-exec-and-resume', …]. */
export function realStages(agent: 'codex' | 'claude' | 'opencode' | 'gemini'): string[] {
  return readdirSync(join(REAL_FIXTURES, agent), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `${agent}/${d.name}`)
    .sort();
}

function workspacesOf(expected: Expected): string[] {
  const all = new Set<string | null>();
  for (const c of expected.conversations) {
    all.add(c.workspace);
    for (const w of c.workspaces_seen ?? []) all.add(w);
  }
  return [...all].filter((w): w is string => typeof w === "string" && w.startsWith(`${OLD_ROOT}/`));
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function rewriter(root: string, expected: Expected): (text: string) => string {
  // Claude keys first (longest first): a key is derived from the whole cwd, so the long ones get a new hash. Gemini's
  // `projectHash` (sha256 of the cwd) is derived from the path too and follows it, so the stage stays what the CLI
  // would have written at the new path.
  const keys = workspacesOf(expected)
    .flatMap((w) => {
      const moved = root + w.slice(OLD_ROOT.length);
      return [[claudeProjectKey(w), claudeProjectKey(moved)] as const, [sha256(w), sha256(moved)] as const];
    })
    .sort((a, b) => b[0].length - a[0].length);
  const plainPrefix = claudeProjectKey(OLD_ROOT);
  const newPrefix = claudeProjectKey(root);
  return (text) => {
    let out = text;
    for (const [from, to] of keys) out = out.split(from).join(to);
    out = out.split(`${plainPrefix}-`).join(`${newPrefix}-`);
    return out.split(OLD_ROOT).join(root);
  };
}

function isSqlite(bytes: Buffer): boolean {
  return bytes.subarray(0, 16).toString('latin1') === 'SQLite format 3\0';
}

function rewriteSqlite(path: string, rewrite: (s: string) => string): void {
  const db = new Database(path);
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    db.exec('BEGIN');
    for (const t of tables) {
      const q = `"${t.replaceAll('"', '""')}"`;
      const cols = (db.prepare(`PRAGMA table_info(${q})`).all() as { name: string }[]).map((c) => c.name);
      const rows = db.prepare(`SELECT rowid AS _rid, * FROM ${q}`).all() as Record<string, unknown>[];
      for (const row of rows) {
        for (const col of cols) {
          const v = row[col];
          if (typeof v !== 'string' || !v.includes(OLD_ROOT) && !v.includes('-home-dev-')) continue;
          db.prepare(`UPDATE ${q} SET "${col.replaceAll('"', '""')}" = ? WHERE rowid = ?`).run(rewrite(v), row['_rid']);
        }
      }
    }
    db.exec('COMMIT');
  } catch {
    // WITHOUT ROWID tables or virtual tables: leave as captured.
    try { db.exec('ROLLBACK'); } catch { /* not in a transaction */ }
  } finally {
    db.close();
  }
}

function rewriteTree(dir: string, rewrite: (s: string) => string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    let name = entry.name;
    const renamed = rewrite(name);
    if (renamed !== name) {
      renameSync(join(dir, name), join(dir, renamed));
      name = renamed;
    }
    const p = join(dir, name);
    if (entry.isDirectory()) {
      rewriteTree(p, rewrite);
      continue;
    }
    if (!entry.isFile()) continue;
    const st = statSync(p);
    const bytes = readFileSync(p);
    if (isSqlite(bytes)) rewriteSqlite(p, rewrite);
    else if (!bytes.includes(0)) {
      const text = bytes.toString('utf8');
      if (Buffer.from(text, 'utf8').equals(bytes)) {
        const next = rewrite(text);
        if (next !== text) writeFileSync(p, next);
      }
    }
    utimesSync(p, st.atime, st.mtime);
  }
}

function rewriteJson<T>(value: T, rewrite: (s: string) => string): T {
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) => (typeof v === 'string' ? rewrite(v) : v)) as T;
}

/**
 * Copies `stage` (e.g. 'codex/03-two-sessions') under `root`: the CLI's home at `<root>/home-<agent>` (as captured),
 * the workspaces as empty dirs, empty dirs git dropped recreated, and every /home/dev rewritten to `root`.
 */
export function materializeStage(stage: string, root: string): RealStage {
  const raw = readExpected(stage);
  const rewrite = rewriter(root, raw);
  const expected = rewriteJson(raw, rewrite);
  const home = expected.env['HOME'] ?? join(root, `home-${raw.agent}`);
  mkdirSync(dirname(home), { recursive: true });
  cpSync(join(REAL_FIXTURES, stage), home, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  rewriteTree(home, rewrite);
  for (const rel of expected.empty_dirs) mkdirSync(join(home, rel), { recursive: true });
  for (const ws of workspacesOf(raw).map(rewrite)) if (!existsSync(ws)) mkdirSync(ws, { recursive: true });
  return { root, home, env: expected.env, expected, abs: (rel) => join(home, rel) };
}
