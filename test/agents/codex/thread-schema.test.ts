// Reading Codex's schema generically: which columns a purge deletes by, which only mention a thread, which state layouts
// are known, and the threads of a cwd whatever the `archived` values.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { stateLayout } from '../../../src/agents/codex/state-layout.js';
import { threadColumns } from '../../../src/agents/codex/thread-columns.js';
import fc from 'fast-check';
import { threadsByCwd, threadsById, threadsByIds } from '../../../src/agents/codex/thread-query.js';

function db(sql: string[]): Database.Database {
  const d = new Database(':memory:');
  for (const s of sql) d.exec(s);
  return d;
}

const REAL_LIKE = [
  'CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER, updated_at INTEGER, cwd TEXT NOT NULL, archived INTEGER NOT NULL DEFAULT 0, updated_at_ms INTEGER, attached_thread_parent_id TEXT, thread_section_id TEXT)',
  'CREATE INDEX idx_threads_archived_cwd ON threads(archived, cwd, updated_at_ms DESC, id DESC)',
  'CREATE TABLE thread_spawn_edges (parent_thread_id TEXT NOT NULL, child_thread_id TEXT NOT NULL PRIMARY KEY, status TEXT)',
  'CREATE TABLE thread_dynamic_tools (thread_id TEXT NOT NULL, position INTEGER)',
  'CREATE TABLE session_model_ids (session_id TEXT NOT NULL, kind TEXT)',
  'CREATE TABLE rollout_migration_state (migration_id TEXT PRIMARY KEY, last_checked_thread_id TEXT)',
  'CREATE TABLE "Odd ""Name""" (Thread_Id TEXT)',
  'CREATE TABLE projects (id TEXT PRIMARY KEY, name TEXT)',
];

describe('threadColumns', () => {
  it('owns rows keyed by the thread (threads.id last), and only mentions other threads\' references', () => {
    const c = threadColumns(db(REAL_LIKE));
    expect(c.owned).toEqual([
      { table: 'Odd "Name"', column: 'Thread_Id' },
      { table: 'session_model_ids', column: 'session_id' },
      { table: 'thread_dynamic_tools', column: 'thread_id' },
      { table: 'thread_spawn_edges', column: 'parent_thread_id' },
      { table: 'thread_spawn_edges', column: 'child_thread_id' },
      { table: 'threads', column: 'id' },
    ]);
    expect(c.mentions).toEqual([
      { table: 'rollout_migration_state', column: 'last_checked_thread_id' },
      { table: 'threads', column: 'attached_thread_parent_id' },
      { table: 'threads', column: 'thread_section_id' },
    ]);
  });
});

describe('stateLayout', () => {
  it('knows a threads table with id, cwd and rollout_path; orders by updated_at_ms', () => {
    expect(stateLayout(db(REAL_LIKE))).toEqual({ kind: 'known', table: 'threads', id: 'id', cwd: 'cwd', rollout: 'rollout_path', activity: { column: 'updated_at_ms', unit: 'ms' }, complete: true });
  });

  it('falls back to updated_at seconds, and reads the backfill state', () => {
    const d = db(['CREATE TABLE threads (id TEXT, cwd TEXT, rollout_path TEXT, updated_at INTEGER)', 'CREATE TABLE backfill_state (id INTEGER, status TEXT)', "INSERT INTO backfill_state VALUES (1, 'running')"]);
    expect(stateLayout(d)).toMatchObject({ kind: 'known', activity: { column: 'updated_at', unit: 's' }, complete: false });
  });

  it('refuses anything else', () => {
    expect(stateLayout(db(['CREATE TABLE threads (id TEXT, title TEXT)']))).toEqual({ kind: 'unknown', reason: 'threads lacks cwd, rollout_path' });
    expect(stateLayout(db(['CREATE TABLE sessions (id TEXT)']))).toEqual({ kind: 'unknown', reason: 'no threads table' });
  });
});

describe('threadsByCwd / threadsById', () => {
  const rows = (d: Database.Database, cwds: string[]) => {
    const l = stateLayout(d);
    if (l.kind !== 'known') throw new Error('layout');
    return threadsByCwd(d, l, cwds).map((r) => r.id).sort();
  };

  it('finds the cwd\'s threads whatever `archived` holds (0, 1, NULL, text), through the (archived, cwd) index or without one', () => {
    const fill = ["INSERT INTO threads (id, rollout_path, cwd, archived) VALUES ('a', '/r/a', '/w', 0), ('b', '/r/b', '/w', 1), ('c', '/r/c', '/other', 0), ('e', '/r/e', '/w', 2), ('f', '/r/f', '/w2', 0)"];
    expect(rows(db([...REAL_LIKE, ...fill]), ['/w', '/w2'])).toEqual(['a', 'b', 'e', 'f']);
    const noIndex = ['CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, cwd TEXT, archived)', ...fill, "INSERT INTO threads VALUES ('g', '/r/g', '/w', NULL), ('h', '/r/h', '/w', 'yes')"];
    expect(rows(db(noIndex), ['/w'])).toEqual(['a', 'b', 'e', 'g', 'h']);
    const nullable = ['CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, cwd TEXT, archived)', 'CREATE INDEX ix ON threads(archived, cwd)', ...fill, "INSERT INTO threads VALUES ('g', '/r/g', '/w', NULL), ('h', '/r/h', '/w', 'yes')"];
    expect(rows(db(nullable), ['/w'])).toEqual(['a', 'b', 'e', 'g', 'h']);
    const cwdFirst = ['CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, cwd TEXT)', 'CREATE INDEX ix ON threads(cwd)', "INSERT INTO threads VALUES ('a', '/r/a', '/w'), ('b', '/r/b', '/x')"];
    expect(rows(db(cwdFirst), ['/w'])).toEqual(['a']);
  });

  it('converts activity to epoch ms, finds a row by either spelling of its id, and drops a row whose path is not text', () => {
    const d = db(['CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path, cwd TEXT, updated_at INTEGER)', "INSERT INTO threads VALUES ('AB-CD', '/r', '/w', 1700000000), ('x', 5, '/w', 1)"]);
    const l = stateLayout(d);
    if (l.kind !== 'known') throw new Error('layout');
    expect(threadsById(d, l, 'ab-cd')).toEqual([{ id: 'AB-CD', cwd: '/w', rolloutPath: '/r', activityMs: 1_700_000_000_000 }]);
    expect(threadsById(d, l, 'x')).toEqual([]);
  });

  it('property: the batch lookup gives each id the rows the one-id lookup gives, in any order (case variants, duplicates, misses, hostile text)', () => {
    const word = fc.constantFrom('ab-cd', 'AB-CD', 'Ab-Cd', 'x', 'X', 'é', 'É', '"]', '\\', "'", 'ß', 'ẞ', '', 'zz');
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 8 }), fc.array(word, { maxLength: 10 }), fc.boolean(), (stored, asked, withSource) => {
        const d = db(['CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT, cwd TEXT, updated_at INTEGER, source TEXT)']);
        const ins = d.prepare('INSERT INTO threads VALUES (?, ?, ?, 1, ?)');
        stored.forEach((id, i) => ins.run(id, `/r/${i}`, '/w', i % 2 === 0 ? 'cli' : '{"subagent":{"thread_spawn":{"parent_thread_id":"p"}}}'));
        const l = stateLayout(d);
        if (l.kind !== 'known') throw new Error('layout');
        const src = withSource ? 'source' : undefined;
        const batch = threadsByIds(d, l, asked, src);
        expect(batch.length).toBe(asked.length);
        const sorted = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).sort();
        asked.forEach((id, i) => expect(sorted(batch[i] ?? [])).toEqual(sorted(threadsById(d, l, id, src))));
      }),
      { numRuns: 200 },
    );
  });
});
