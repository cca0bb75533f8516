// adapter.survey(ctx): an empty `discover` says why — a missing store, an unknown layout, or (the real Codex fixture
// copied elsewhere: a moved CODEX_HOME) rows whose rollout_path lies outside the home.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import { AGENT_NAMES } from '../../../src/ids/agent-names.js';
import { materializeStage } from '../../helpers/real-stage.js';
import { treeSnapshot } from '../../helpers/tree-snapshot.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function tempRoot(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-survey-'));
  roots.push(r);
  return r;
}

describe('survey', () => {
  it('an empty home: every store is missing (grok too: its survey comes from its inspection, which knows its layout)', async () => {
    const home = tempRoot();
    for (const agent of AGENT_NAMES) {
      const s = await getAdapter(agent).survey({ workspace: home, home: home, env: { HOME: home, PATH: '' } });
      expect(s.agent).toBe(agent);
      expect(s.store, agent).toBe('missing');
      expect(s.reason).toBeTruthy();
    }
  });

  it('codex moved: the real fixture copied to another CODEX_HOME — rollouts there, every rollout_path outside: survey says so', async () => {
    const stage = materializeStage('codex/03-two-sessions', tempRoot());
    const ws = join(stage.root, 'ws-codex');
    const original = { workspace: ws, home: stage.home, env: stage.env };
    const codex = getAdapter('codex');
    const here = await codex.survey(original);
    expect(here).toMatchObject({ store: 'ok', outsideHome: 0 });
    expect(here.counts?.['threads']).toBeGreaterThan(0);
    expect(await codex.discover(original)).not.toEqual([]);

    const moved = join(tempRoot(), 'moved-codex');
    cpSync(join(stage.home, '.codex'), moved, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    rmSync(join(stage.home, '.codex'), { recursive: true });
    const ctx = { workspace: ws, home: stage.home, env: { ...stage.env, CODEX_HOME: moved } };
    const before = treeSnapshot(moved);
    const s = await codex.survey(ctx);
    expect(s).toMatchObject({ agent: 'codex', store: 'ok', root: moved });
    expect(s.counts?.['rollouts']).toBeGreaterThan(0);
    expect(s.outsideHome).toBe(s.counts?.['threads']);
    expect(s.outsideHome).toBeGreaterThan(0);
    expect(s.reason).toMatch(/outside .*moved CODEX_HOME/);
    expect(treeSnapshot(moved)).toEqual(before);
  });

  it('codex: a state database of an unknown layout is unknown-layout, with the database named', async () => {
    const home = tempRoot();
    mkdirSync(join(home, '.codex'));
    const db = new Database(join(home, '.codex', 'state_5.sqlite'));
    db.exec('CREATE TABLE threads (uuid TEXT PRIMARY KEY, path TEXT)');
    db.close();
    const s = await getAdapter('codex').survey({ workspace: home, home: home, env: {} });
    expect(s).toMatchObject({ store: 'unknown-layout', reason: expect.stringContaining('state_5.sqlite') });
  });

  it('opencode: a database with neither session table is unknown-layout; a real one counts its sessions', async () => {
    const home = tempRoot();
    const dir = join(home, '.local', 'share', 'opencode');
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, 'opencode.db'));
    db.exec('CREATE TABLE conversations (id TEXT PRIMARY KEY)');
    db.close();
    const env = { HOME: home, PATH: join(home, 'no-bin') };
    expect(await getAdapter('opencode').survey({ workspace: home, home: home, env })).toMatchObject({ store: 'unknown-layout' });
    const stage = materializeStage('opencode/03-two-sessions-before-delete', tempRoot());
    const real = await getAdapter('opencode').survey({ workspace: stage.home, home: stage.home, env: { ...stage.env, PATH: join(stage.root, 'no-bin') } });
    expect(real).toMatchObject({ store: 'ok' });
    expect(Object.values(real.counts ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('a store root that is there but no directory is unreadable (its inspection says readable: false), for every agent', async () => {
    const home = tempRoot();
    const env = { HOME: home, PATH: '', GEMINI_HOME: join(home, 'agy') };
    const roots: Record<string, string> = {
      claude: join(home, '.claude'),
      agy: join(home, 'agy', 'antigravity-cli'),
      gemini: join(home, '.gemini'),
      codex: join(home, '.codex'),
      grok: join(home, '.grok'),
      hermes: join(home, '.hermes'),
      opencode: join(home, '.local', 'share', 'opencode'),
    };
    mkdirSync(join(home, '.local', 'share'), { recursive: true });
    mkdirSync(join(home, 'agy'));
    for (const r of Object.values(roots)) writeFileSync(r, 'not a directory');
    for (const agent of AGENT_NAMES) {
      const s = await getAdapter(agent).survey({ workspace: home, home, env });
      expect(s.store, agent).toBe('unreadable');
      expect(s.reason, agent).toMatch(/is not a directory/);
      expect((await getAdapter(agent).inspect?.({ workspace: home, home, env }))?.readable, agent).toBe(false);
    }
  });

  it('codex: a state database that does not open is unreadable, with the database named', async () => {
    const home = tempRoot();
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'state_5.sqlite'), 'not a database, just text long enough to have a header of sorts');
    const s = await getAdapter('codex').survey({ workspace: home, home: home, env: {} });
    expect(s).toMatchObject({ store: 'unreadable', reason: expect.stringContaining('state_5.sqlite') });
  });
});
