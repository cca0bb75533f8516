// The schema facts discovery remembers (layout, index serving cwd) are keyed by the whole schema text: any change of
// schema is read afresh (an unknown layout is never taken for a remembered known one), and the backfill status — data,
// not schema — is read every time.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { schemaLayout, withBackfill } from '../../../src/agents/codex/state-layout.js';
import { stateSchema } from '../../../src/agents/codex/state-schema.js';
import { cwdIndexLead } from '../../../src/agents/codex/thread-query.js';

const THREADS = 'CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, cwd TEXT NOT NULL, archived INTEGER NOT NULL DEFAULT 0, updated_at_ms INTEGER)';
const INDEX = 'CREATE INDEX idx_threads_archived_cwd ON threads(archived, cwd)';
const BACKFILL = 'CREATE TABLE backfill_state (id INTEGER PRIMARY KEY, status TEXT NOT NULL)';

const open: Database.Database[] = [];
function db(...sql: string[]): Database.Database {
  const d = new Database(':memory:');
  open.push(d);
  for (const s of sql) d.exec(s);
  return d;
}
afterEach(() => {
  for (const d of open.splice(0)) d.close();
});

describe('stateSchema', () => {
  it('is what the schema says, read once per distinct schema', () => {
    const a = db(THREADS, INDEX);
    const first = stateSchema(a);
    expect(first).toEqual({ layout: schemaLayout(a), cwdIndex: cwdIndexLead(a, { table: 'threads', cwd: 'cwd' }), source: null });
    expect(first.layout).toMatchObject({ kind: 'known', rollout: 'rollout_path', activity: { column: 'updated_at_ms', unit: 'ms' }, backfill: null });
    expect(first.cwdIndex).toEqual({ lead: 'archived', nullable: false });
    // Another database with the very same schema gets the remembered facts.
    expect(stateSchema(db(THREADS, INDEX))).toBe(first);
    // The sub-agent marker column, read with the rows in the same statement, is a schema fact too.
    expect(stateSchema(db(THREADS.replace('cwd TEXT', 'Source TEXT, cwd TEXT'), INDEX)).source).toBe('Source');
  });

  it('fails closed on any schema change: a column gone makes the layout unknown, an index gone drops the cwd index', () => {
    const a = db(THREADS, INDEX);
    expect(stateSchema(a).layout.kind).toBe('known');
    a.exec('ALTER TABLE threads RENAME COLUMN rollout_path TO path');
    expect(stateSchema(a).layout).toEqual({ kind: 'unknown', reason: 'threads lacks rollout_path' });
    const b = db(THREADS, INDEX);
    expect(stateSchema(b).cwdIndex).not.toBeNull();
    b.exec('DROP INDEX idx_threads_archived_cwd');
    expect(stateSchema(b).cwdIndex).toBeNull();
  });

  it('a backfill table added later is seen, and its status is read every time (it is data)', () => {
    const a = db(THREADS, INDEX);
    expect(withBackfill(a, stateSchema(a).layout)).toMatchObject({ kind: 'known', complete: true });
    a.exec(BACKFILL);
    a.exec("INSERT INTO backfill_state (status) VALUES ('running')");
    expect(stateSchema(a).layout).toMatchObject({ backfill: 'backfill_state' });
    expect(withBackfill(a, stateSchema(a).layout)).toMatchObject({ complete: false });
    a.exec("UPDATE backfill_state SET status = 'complete'");
    expect(withBackfill(a, stateSchema(a).layout)).toMatchObject({ complete: true });
    // Same schema, other data: each database answers for itself.
    const b = db(THREADS, INDEX, BACKFILL);
    expect(withBackfill(b, stateSchema(b).layout)).toMatchObject({ complete: false });
  });
});
