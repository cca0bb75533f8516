// Which state.db layouts a purge may touch: Hermes' schema 22 (FTS5 tables, their triggers) and later schemas that only
// add tables/columns (schema 30's, from Hermes' source) are known; a table naming a session by an unknown column is not.
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../src/agents/hermes/hermes-adapter.js';
import { hermesLayout } from '../../../src/agents/hermes/hermes-layout.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { hashTree, portsWith } from '../../helpers/adapter-agy-files.js';
import { HERMES_FIXTURES, IDS } from '../../helpers/adapter-hermes-real.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { strs } from '../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let db: string;
beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-layout-'));
  mkdirSync(join(dir, '.hermes'));
  // The context's home must exist (adapters refuse one that does not); the store is HERMES_HOME.
  mkdirSync(join(dir, 'home'));
  db = join(dir, '.hermes', 'state.db');
  copyFileSync(join(HERMES_FIXTURES, '03-delegate', 'home-checkpointed', '.hermes', 'state.db'), db);
});
afterEach(() => dispose());

// What schema 23..30 add (Hermes' SCHEMA_SQL / FTS DDL at schema 30): tables, columns, the display and CJK triggers.
const SCHEMA_30 = [
  'CREATE TABLE system_prompts (hash TEXT PRIMARY KEY, prompt TEXT NOT NULL)',
  'ALTER TABLE sessions ADD COLUMN system_prompt_hash TEXT REFERENCES system_prompts(hash)',
  'ALTER TABLE sessions ADD COLUMN last_activity_at REAL',
  'ALTER TABLE sessions ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0',
  'ALTER TABLE sessions ADD COLUMN created_source TEXT',
  'ALTER TABLE messages ADD COLUMN display_kind TEXT',
  'ALTER TABLE messages ADD COLUMN display_order INTEGER',
  'ALTER TABLE messages ADD COLUMN display_identity BLOB',
  'ALTER TABLE async_delegations ADD COLUMN origin_session_id TEXT NOT NULL DEFAULT \'\'',
  "CREATE TABLE conversation_generations (source TEXT NOT NULL, session_key TEXT NOT NULL, generation INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (source, session_key))",
  "CREATE TABLE gateway_hygiene_state (session_key TEXT PRIMARY KEY, failure_streak INTEGER NOT NULL DEFAULT 0)",
  "CREATE TABLE gateway_heartbeats (backend_id TEXT PRIMARY KEY, pid INTEGER NOT NULL, started_at REAL NOT NULL, last_heartbeat REAL NOT NULL, profile TEXT NOT NULL DEFAULT '', host TEXT NOT NULL DEFAULT '')",
  'CREATE TABLE session_turn_leases (conversation_id TEXT PRIMARY KEY, holder TEXT NOT NULL, acquired_at REAL NOT NULL, expires_at REAL NOT NULL)',
  'CREATE TRIGGER messages_display_order_insert AFTER INSERT ON messages WHEN new.display_order IS NULL BEGIN UPDATE messages SET display_order = new.id WHERE id = new.id; END',
  'CREATE TRIGGER messages_display_identity_delete AFTER DELETE ON messages WHEN old.active = 1 BEGIN UPDATE messages SET display_order = NULL WHERE display_identity = old.display_identity AND session_id = old.session_id; END',
  'CREATE VIRTUAL TABLE messages_fts_cjk USING fts5(content)',
  'CREATE TRIGGER messages_fts_cjk_delete AFTER DELETE ON messages BEGIN DELETE FROM messages_fts_cjk WHERE rowid = old.id; END',
  'UPDATE schema_version SET version = 30',
];

function apply(sql: readonly string[]): void {
  const conn = new Database(db);
  try {
    for (const s of sql) conn.exec(s);
  } finally {
    conn.close();
  }
}

function layout() {
  const conn = new Database(db, { readonly: true });
  try {
    return hermesLayout(conn);
  } finally {
    conn.close();
  }
}

const hermes = () => new HermesAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
const ctx = () => ({ workspace: join(dir, 'ws'), home: join(dir, 'home'), env: { HERMES_HOME: join(dir, '.hermes') } });

describe('hermes layout', () => {
  it('schema 22 as Hermes wrote it is known: child tables first, sessions.id last, both FTS tables', () => {
    const l = layout();
    expect(l.kind).toBe('known');
    if (l.kind !== 'known') return;
    expect(l.targets.map((t) => `${t.table}.${t.column}`)).toEqual([
      'async_delegations.origin_session', 'async_delegations.origin_ui_session_id', 'async_delegations.parent_session_id',
      'compression_locks.session_id', 'messages.session_id', 'session_model_usage.session_id', 'sessions.id',
    ]);
    expect(l.fts).toEqual(['messages_fts', 'messages_fts_trigram']);
  });

  it('schema 30 (only added tables, columns and the display/CJK triggers) is known, and a purge clears its leases too', async () => {
    apply([...SCHEMA_30, `INSERT INTO session_turn_leases VALUES ('${IDS.a3_child}', 'pid=1', 1, 2)`, `INSERT INTO compression_locks VALUES ('${IDS.a3_root}', 'pid=1', 1, 2)`]);
    const l = layout();
    expect(l.kind).toBe('known');
    if (l.kind === 'known') expect(l.targets.map((t) => `${t.table}.${t.column}`)).toContain('session_turn_leases.conversation_id');
    const purged = strs(await hermes().purgeArtifacts(IDS.a3_root, ctx()));
    expect(purged).toContain(`${db} (session_turn_leases.conversation_id: 1 rows)`);
    expect(purged).toContain(`${db} (compression_locks.session_id: 1 rows)`);
    expect(strs(await hermes().residualArtifacts(IDS.a3_child, ctx()))).toEqual([]);
  });

  it.each([
    ['a new table keyed by session_id', ['CREATE TABLE session_notes (session_id TEXT, note TEXT)'], 'session_notes.session_id name a session by a column this adapter does not know'],
    ['a new session column in a known table', ['ALTER TABLE messages ADD COLUMN forked_session_id TEXT'], 'messages.forked_session_id name a session by a column this adapter does not know'],
    ['a foreign key to sessions by another name', ['CREATE TABLE bookmarks (owner TEXT REFERENCES sessions(id))'], 'bookmarks.owner name a session by a column this adapter does not know'],
    ['a trigger it does not know', ['CREATE TRIGGER audit AFTER DELETE ON messages BEGIN SELECT 1; END'], 'triggers audit'],
    ['an FTS table without its delete trigger', ['DROP TRIGGER messages_fts_delete'], 'virtual tables messages_fts without their delete triggers'],
    ['another virtual table', ['CREATE VIRTUAL TABLE notes_fts USING fts5(x)'], 'virtual tables notes_fts'],
  ])('%s: unknown, the purge refuses and deletes nothing', async (_label, sql, reason) => {
    apply(sql);
    expect(layout()).toEqual({ kind: 'unknown', reason });
    const before = hashTree(dir);
    expect(strs(await hermes().purgeArtifacts(IDS.a1, ctx()))).toEqual([]);
    expect(hashTree(dir)).toEqual(before);
    const residual = strs(await hermes().residualArtifacts(IDS.a1, ctx()));
    expect(residual).toContain(`${db} (messages.session_id: 8 rows)`);
    expect(residual[residual.length - 1]).toBe(`${db} (unknown layout: refusing to purge: ${reason})`);
  });
});
