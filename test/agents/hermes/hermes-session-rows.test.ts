// Each field of a `sessions` row as the adapter reads it (raw rows, column by column): on the real schema, every column
// holding a value of its own, so a field read from the wrong column shows; and the model_config cases (none, empty,
// not JSON, not an object, too long) that give no config fields.
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { chainRows } from '../../../src/agents/hermes/hermes-chain-rows.js';
import { hermesSessionColumns } from '../../../src/agents/hermes/hermes-layout.js';
import { sessionRows } from '../../../src/agents/hermes/hermes-sessions.js';
import { realSessionsSchema } from '../../helpers/adapter-hermes-real.js';

const db = new Database(':memory:');
for (const sql of realSessionsSchema()) db.exec(sql);
afterAll(() => db.close());

const ins = db.prepare(
  'INSERT INTO sessions (id, source, parent_session_id, started_at, ended_at, end_reason, cwd, git_repo_root, model_config) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const config = JSON.stringify({ cwd: '/acp/dir', _delegate_from: '20260101_000000_aaaaaaaa', _branched_from: '20260101_000000_bbbbbbbb', _reset_from: '20260101_000000_cccccccc' });
ins.run('20260101_120000_00000001', 'acp', null, 1_790_000_000.5, null, null, '/the/cwd', '/the/repo', config);
ins.run('20260101_120000_00000002', 'cli', '20260101_120000_00000001', 1_790_000_001, 1_790_000_002, 'compression', null, null, '{}');
ins.run('20260101_120000_00000003', 'cli', null, 1_790_000_003, 1_790_000_004, 'user', null, null, 'not json');
ins.run('20260101_120000_00000004', 'cli', null, 1_790_000_005, null, null, null, null, '[1, 2]');
ins.run('20260101_120000_00000005', 'cli', null, 1_790_000_006, null, null, null, null, JSON.stringify({ cwd: `/${'x'.repeat(70_000)}` }));

const none = { configCwd: null, delegateFrom: null, branchedFrom: null, resetFrom: null };

describe('Hermes session rows', () => {
  it('reads every field from its own column', () => {
    const rows = sessionRows(db, hermesSessionColumns(db));
    expect(rows[0]).toEqual({
      id: '20260101_120000_00000001',
      cwd: '/the/cwd',
      gitRepoRoot: '/the/repo',
      configCwd: '/acp/dir',
      startedAt: 1_790_000_000.5,
      parent: null,
      open: true,
      endReason: null,
      source: 'acp',
      delegateFrom: '20260101_000000_aaaaaaaa',
      branchedFrom: '20260101_000000_bbbbbbbb',
      resetFrom: '20260101_000000_cccccccc',
    });
    expect(rows[1]).toEqual({ id: '20260101_120000_00000002', cwd: null, gitRepoRoot: null, startedAt: 1_790_000_001, parent: '20260101_120000_00000001', open: false, endReason: 'compression', source: 'cli', ...none });
  });

  it('gives no config fields for a config that is empty, not JSON, not an object or too long', () => {
    const rows = sessionRows(db, hermesSessionColumns(db));
    for (const r of rows.slice(1)) expect({ configCwd: r.configCwd, delegateFrom: r.delegateFrom, branchedFrom: r.branchedFrom, resetFrom: r.resetFrom }).toEqual(none);
    expect(rows.map((r) => r.open)).toEqual([true, false, false, true, true]);
  });

  it('walks a chain by key and parent to the same rows the table has', () => {
    const cols = hermesSessionColumns(db);
    const all = sessionRows(db, cols);
    const chain = chainRows(db, '20260101_120000_00000002', cols);
    expect(chain.map((r) => r.id).sort()).toEqual(['20260101_120000_00000001', '20260101_120000_00000002']);
    for (const r of chain) expect(r).toEqual(all.find((a) => a.id === r.id));
  });
});
