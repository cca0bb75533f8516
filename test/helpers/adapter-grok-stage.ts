// Materialises the derived grok fixture (test/fixtures/derived/grok: a grok home laid out exactly as grok-build's code
// writes it, rooted at /home/dev) under a new root: bucket names (URL-encoded cwds), JSON text and the search database's
// cwd column that named /home/dev now name the root. EXPECTED.json is rewritten the same way.
import Database from 'better-sqlite3';
import { cpSync, chmodSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeGrokCwd } from '../../src/agents/grok/grok-encode.js';

export const GROK_FIXTURE = join(import.meta.dirname, '../fixtures/derived/grok');
const OLD_ROOT = '/home/dev';

/** One session of EXPECTED.json (the fields the tests use). */
export interface GrokExpectedSession {
  cwd: string;
  session_dir: string;
  session_kind: string | null;
  hidden_from_listing: boolean;
  parent_session_id: string | null;
  files_in_session_dir: string[];
  other_paths_naming_it: string[];
  db_rows: Array<{ db: string; table: string; session_id?: string }>;
}

/** EXPECTED.json, rewritten. */
export interface GrokExpected {
  grok_home: string;
  workspaces: Record<string, { bucket_dir: string; visible_sessions_newest_first: string[]; all_sessions_newest_first_including_hidden_subagents: string[]; bucket_files: string[] }>;
  sessions: Record<string, GrokExpectedSession>;
  global_files: string[];
}

/** The stage. */
export interface GrokStage {
  root: string;
  home: string;
  /** `<home>/.grok`. */
  grok: string;
  wsA: string;
  wsB: string;
  expected: GrokExpected;
  /** Absolute path of a path relative to the grok home. */
  abs(rel: string): string;
  /** The search database. */
  searchDb: string;
}

/** The ids of the fixture by role. */
export const GROK_IDS = {
  a1: '01a05c69-4d7b-71a1-8a1a-0000000000a1',
  a2: '01a05ca0-3bfb-72a2-8a2a-0000000000a2',
  c1: '01a05ca0-4f83-73c1-8c1c-0000000000c1',
  b1: '01a05cd7-2a7b-74b1-8b1b-0000000000b1',
} as const;

function rewriter(root: string): (s: string) => string {
  const oldEnc = encodeGrokCwd(OLD_ROOT) as string;
  const newEnc = encodeGrokCwd(root);
  if (newEnc === null) throw new Error(`root too long for a URL-encoded bucket: ${root}`);
  return (s) => s.split(oldEnc).join(newEnc).split(OLD_ROOT).join(root);
}

function rewriteTree(dir: string, rewrite: (s: string) => string, dbs: string[]): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    let name = entry.name;
    if (rewrite(name) !== name) {
      renameSync(join(dir, name), join(dir, rewrite(name)));
      name = rewrite(name);
    }
    const p = join(dir, name);
    if (entry.isDirectory()) {
      rewriteTree(p, rewrite, dbs);
      continue;
    }
    chmodSync(p, 0o600);
    if (name.endsWith('.sqlite')) {
      dbs.push(p);
      continue;
    }
    const text = readFileSync(p, 'utf8');
    if (rewrite(text) !== text) writeFileSync(p, rewrite(text));
  }
}

function rewriteJson<T>(value: T, rewrite: (s: string) => string): T {
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) => {
    if (typeof v === 'string') return rewrite(v);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [rewrite(k), x]));
  }) as T;
}

/** Copies the fixture home under `root` (`<root>/home/.grok`) with the workspaces `<root>/ws-grok-a|b` created. */
export function materializeGrokStage(root: string): GrokStage {
  const rewrite = rewriter(root);
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  cpSync(join(GROK_FIXTURE, 'home', '.grok'), join(home, '.grok'), { recursive: true });
  const dbs: string[] = [];
  rewriteTree(join(home, '.grok'), rewrite, dbs);
  for (const p of dbs) {
    const db = new Database(p);
    // The update trigger keeps the FTS index in step, as grok's own writes do.
    db.prepare('UPDATE session_docs SET cwd = replace(cwd, ?, ?)').run(OLD_ROOT, rewrite(OLD_ROOT));
    db.close();
  }
  const expected = rewriteJson(JSON.parse(readFileSync(join(GROK_FIXTURE, 'EXPECTED.json'), 'utf8')) as GrokExpected, rewrite);
  const wsA = join(root, 'ws-grok-a');
  const wsB = join(root, 'ws-grok-b');
  for (const ws of [wsA, wsB]) mkdirSync(ws, { recursive: true });
  const grok = join(home, '.grok');
  return { root, home, grok, wsA, wsB, expected, abs: (rel) => join(grok, rel), searchDb: join(grok, 'sessions', 'session_search.sqlite') };
}

/** The session ids of the search database's `session_docs`, and those the FTS index finds for a word. */
export function searchState(db: string, word: string): { docs: string[]; matching: string[] } {
  const conn = new Database(db, { readonly: true });
  try {
    const docs = conn.prepare('SELECT session_id FROM session_docs ORDER BY session_id').pluck().all() as string[];
    const matching = conn
      .prepare('SELECT d.session_id FROM session_docs_fts f JOIN session_docs d ON d.rowid = f.rowid WHERE session_docs_fts MATCH ? ORDER BY 1')
      .pluck()
      .all(word) as string[];
    return { docs, matching };
  } finally {
    conn.close();
  }
}

/** Mode bits of a path (for checks that a stage stays as grok left it). */
export function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}
