// inspectStores: per agent, is a store there, which layout/version it records, known or unknown, counts and problems —
// on the real fixtures, a moved home, an unknown layout, an unreadable database, and the four WAL states (untouched).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreReport } from '../../src/agents/types.js';
import { formatStoreReport, inspectStores } from '../../src/index.js';
import { hashTree } from '../helpers/adapter-codex-tree.js';
import { codexDir, execSql, stateSql, v7, writeRollout, type ThreadSpec } from '../helpers/adapter-codex-home.js';
import { materializeStage } from '../helpers/real-stage.js';
import { buildWalState, WAL_STATES } from '../helpers/sqlite-wal-states.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function temp(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-inspect-'));
  roots.push(r);
  return r;
}
const of = (reports: StoreReport[], agent: string): StoreReport => reports.find((r) => r.agent === agent) as StoreReport;

describe('inspectStores on the real stages', () => {
  it('codex: state_5 with its migration, known, thread and rollout counts; nothing changed on disk', async () => {
    const s = materializeStage('codex/03-two-sessions', temp());
    const before = hashTree(s.home);
    const r = of(await inspectStores({ home: s.home, env: s.env }), 'codex');
    expect(r).toMatchObject({ presence: 'present', known: true, root: join(s.home, '.codex'), counts: { threads: 2, rollouts: 2, archived: 0, 'sub-agent threads': 0 }, problems: [] });
    expect(r.layout).toBe('state_5.sqlite (user_version 0, migration 64)');
    expect(hashTree(s.home)).toEqual(before);
  });

  it('codex: a moved home shows its rows pointing outside it', async () => {
    const s = materializeStage('codex/03-two-sessions', temp());
    const home = join(s.root, 'moved');
    cpSync(s.home, home, { recursive: true });
    const r = of(await inspectStores({ home, env: { HOME: home, CODEX_HOME: join(home, '.codex') } }), 'codex');
    expect(r.known).toBe(true);
    expect(r.problems).toEqual([expect.stringContaining('2 threads rows record a rollout_path outside')]);
  });

  it('claude: transcripts and the version that wrote them', async () => {
    const s = materializeStage('claude/01-after-runs', temp());
    const r = of(await inspectStores({ home: s.home, env: s.env }), 'claude');
    expect(r).toMatchObject({ presence: 'present', known: true, counts: { transcripts: 4, 'unknown stores': 0 } });
    expect(r.layout).toContain('2.1.197');
  });

  it('opencode: the 1.x session table, migrations and session counts, without running the CLI', async () => {
    const s = materializeStage('opencode/03-two-sessions-before-delete', temp());
    const before = hashTree(s.home);
    const r = of(await inspectStores({ home: s.home, env: { ...s.env, PATH: '' } }), 'opencode');
    expect(r).toMatchObject({ presence: 'present', known: true, counts: { 'session rows': 2, 'session child sessions': 0 } });
    expect(r.layout).toMatch(/^1\.x session \(user_version 0, \d+ migrations\)$/);
    expect(hashTree(s.home)).toEqual(before);
  });

  it('every agent has a report; the ones without a store inspection say so, an empty home is absent', async () => {
    const home = temp();
    const reports = await inspectStores({ home, env: { HOME: home } });
    expect(reports.map((r) => [r.agent, r.presence])).toEqual([
      ['claude', 'absent'],
      ['agy', 'absent'],
      ['codex', 'absent'],
      ['grok', 'absent'],
      ['hermes', 'absent'],
      ['opencode', 'absent'],
      ['gemini', 'absent'],
    ]);
    const text = formatStoreReport(reports);
    expect(text.split('\n')[0]).toMatch(/^claude\s+absent\s+/);
  });
});

describe('inspectStores makes the fail-closed decision visible', () => {
  it('an unknown codex layout and an unreadable database are problems; the verdict is unknown', async () => {
    const home = temp();
    const codex = codexDir(home);
    execSql(join(codex, 'state_5.sqlite'), ['CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT)']);
    writeFileSync(join(codex, 'logs_2.sqlite'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(200, 7)]));
    const r = of(await inspectStores({ home, env: { HOME: home } }), 'codex');
    expect(r.known).toBe(false);
    expect(r.problems).toEqual([expect.stringContaining('logs_2.sqlite: unreadable'), 'state_5.sqlite: unknown layout (threads lacks cwd, rollout_path): purges refuse']);
    expect(formatStoreReport([r])).toContain('UNKNOWN: destructive work refuses');
    expect(r.readable).toBe(false);
  });

  it('a store root that is there but no directory is present and unreadable, not absent (doctor says so)', async () => {
    const home = temp();
    writeFileSync(join(home, '.claude'), 'not a directory');
    const r = of(await inspectStores({ home, env: { HOME: home } }), 'claude');
    expect(r).toMatchObject({ presence: 'present', readable: false, problems: [`${join(home, '.claude')} is not a directory`] });
    expect(formatStoreReport([r])).toContain('UNREADABLE: what it holds there is not known');
  });

  it.each(WAL_STATES)('WAL state %s: counts read through the WAL, the directory listing unchanged', async (state) => {
    const home = temp();
    const codex = codexDir(home);
    mkdirSync(codex, { recursive: true });
    const ts: ThreadSpec[] = [1, 2, 3].map((n) => ({ id: v7(n), cwd: '/w', updated: 1_900_000_000 + n }));
    for (const t of ts) writeRollout(home, t);
    const fx = await buildWalState(state, join(codex, 'state_5.sqlite'), stateSql(home, ts));
    try {
      const names = readdirSync(codex).sort();
      const r = of(await inspectStores({ home, env: { HOME: home } }), 'codex');
      expect(r.counts['threads']).toBe(3);
      expect(readdirSync(codex).sort()).toEqual(names);
    } finally {
      await fx.stop();
    }
  });
});
