// inspectStores for hermes and grok: on the real Hermes stages (a WAL never checkpointed, profiles, a delegate child,
// a compression chain) and the derived grok home — presence, layout, known, counts and problems; nothing changed on disk.
import Database from 'better-sqlite3';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StoreReport } from '../../src/agents/types.js';
import { inspectStores } from '../../src/index.js';
import { hashTree } from '../helpers/adapter-codex-tree.js';
import { GROK_IDS, materializeGrokStage } from '../helpers/adapter-grok-stage.js';
import { materializeHermesStage, realHermesSql } from '../helpers/adapter-hermes-real.js';
import { buildWalState, snapshotDir, WAL_STATES } from '../helpers/sqlite-wal-states.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function temp(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-inspect-hg-'));
  roots.push(r);
  return r;
}
async function report(home: string, env: Record<string, string>, agent: string): Promise<StoreReport> {
  return (await inspectStores({ home, env })).find((r) => r.agent === agent) as StoreReport;
}

describe('inspectStores: hermes', () => {
  it.each(['raw', 'checkpointed'] as const)('03-delegate (%s): schema 22, known, sessions, conversations, chain, delegate; tree unchanged', async (variant) => {
    const s = materializeHermesStage('03-delegate', temp(), variant);
    const before = hashTree(s.root);
    const r = await report(s.ctx.home, s.ctx.env, 'hermes');
    expect(r).toMatchObject({ presence: 'present', root: s.hermesHome, known: true, problems: [], layout: 'state.db schema 22' });
    expect(r.counts).toEqual({ stores: 1, sessions: 7, conversations: 5, 'compression chains': 1, 'delegate children': 1 });
    expect(hashTree(s.root)).toEqual(before);
  });

  it('a profile with an unknown layout and one with an unreadable state.db are problems; the verdict is unknown', async () => {
    const s = materializeHermesStage('01-two-sessions', temp());
    // Profiles live under <home>/.hermes/profiles, whatever HERMES_HOME says.
    const odd = join(s.ctx.home, '.hermes', 'profiles', 'odd');
    const bad = join(s.ctx.home, '.hermes', 'profiles', 'bad');
    mkdirSync(odd, { recursive: true });
    mkdirSync(bad, { recursive: true });
    cpSync(s.db, join(odd, 'state.db'));
    const db = new Database(join(odd, 'state.db'));
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, session_ref TEXT)');
    db.close();
    writeFileSync(join(bad, 'state.db'), Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(200, 7)]));
    const r = await report(s.ctx.home, s.ctx.env, 'hermes');
    expect(r.known).toBe(false);
    expect(r.counts['stores']).toBe(4);
    expect(r.counts['sessions']).toBe(6);
    expect(r.layout).toContain('profiles/odd/state.db schema 22');
    expect(r.problems).toEqual([
      expect.stringMatching(/profiles\/bad\/state\.db: unreadable/),
      expect.stringContaining('profiles/odd/state.db: unknown layout (notes.session_ref name a session by a column this adapter does not know)'),
    ]);
  });

  it.each(WAL_STATES)('WAL state %s: the real schema read through the WAL, the directory listing unchanged', async (state) => {
    const root = temp();
    const hermesHome = join(root, '.hermes');
    mkdirSync(hermesHome, { recursive: true });
    mkdirSync(join(root, 'home'), { recursive: true });
    const fx = await buildWalState(state, join(hermesHome, 'state.db'), realHermesSql('03-delegate', root));
    try {
      const listing = snapshotDir(hermesHome);
      const r = await report(join(root, 'home'), { HERMES_HOME: hermesHome }, 'hermes');
      expect(r).toMatchObject({ known: true, layout: 'state.db schema 22', counts: { sessions: 7, 'delegate children': 1 } });
      expect(snapshotDir(hermesHome)).toEqual(listing);
    } finally {
      await fx.stop();
    }
  });

  it('an empty home has no Hermes store', async () => {
    const home = temp();
    expect(await report(home, { HOME: home }, 'hermes')).toMatchObject({ presence: 'absent', known: null, counts: {} });
  });
});

describe('inspectStores: grok', () => {
  it('the derived home: buckets, sessions, the hidden subagent, the search database known; tree unchanged', async () => {
    const s = materializeGrokStage(temp());
    const before = hashTree(s.root);
    const r = await report(s.home, { HOME: s.home }, 'grok');
    expect(r).toMatchObject({ presence: 'present', root: s.grok, known: true, problems: [] });
    expect(r.counts).toEqual({ 'session buckets': 2, sessions: 4, 'hidden (subagent) sessions': 1, 'search databases': 1 });
    expect(r.layout).toMatch(/^session dirs \+ session_search\.sqlite \(user_version \d+\)$/);
    expect(hashTree(s.root)).toEqual(before);
  });

  it('an unparseable summary and an unknown search layout are problems', async () => {
    const s = materializeGrokStage(temp());
    const bucketB = s.expected.workspaces[s.wsB]?.bucket_dir ?? '';
    writeFileSync(join(s.abs(bucketB), GROK_IDS.b1, 'summary.json'), '{not json');
    const db = new Database(s.searchDb);
    db.exec("CREATE TRIGGER extra AFTER INSERT ON session_docs BEGIN SELECT 1; END");
    db.close();
    const r = await report(s.home, { HOME: s.home }, 'grok');
    expect(r.known).toBe(false);
    expect(r.counts['sessions']).toBe(3);
    expect(r.problems).toEqual([
      expect.stringContaining(`${GROK_IDS.b1}: summary.json is not a summary grok writes`),
      expect.stringContaining('session_search.sqlite: unknown search layout (triggers extra)'),
    ]);
  });

  it('a linked sessions dir is not followed', async () => {
    const s = materializeGrokStage(temp());
    const moved = join(s.root, 'elsewhere');
    cpSync(join(s.grok, 'sessions'), moved, { recursive: true });
    rmSync(join(s.grok, 'sessions'), { recursive: true });
    symlinkSync(moved, join(s.grok, 'sessions'));
    const r = await report(s.home, { HOME: s.home, GROK_HOME: s.grok }, 'grok');
    expect(r).toMatchObject({ presence: 'present', known: false, counts: {} });
    expect(r.problems).toEqual([expect.stringContaining('sessions/ is a symbolic link: not followed')]);
  });
});
