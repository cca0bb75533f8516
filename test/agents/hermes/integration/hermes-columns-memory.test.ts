// Hermes remembers each store's columns (and, for discover, its recorded directories) under the lstats of state.db and its sidecars once settled by the ports' clock:
// an unchanged, settled store is not probed again, and a store replaced in place (another file, its columns changed,
// aged to look settled) is read afresh — the remembered columns never answer for another file.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const ID = '20260101_120000_0000abcd';

// Without a `source` column the row is a conversation of its own; with one saying `subagent` it is a delegate (never verified).
function makeDb(path: string, delegate: boolean, ws: string): void {
  const db = new Database(path);
  db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, started_at REAL, ended_at REAL, end_reason TEXT, cwd TEXT${delegate ? ', source TEXT' : ''})`);
  if (delegate) db.prepare("INSERT INTO sessions (id, started_at, cwd, source) VALUES (?, 1790000000, ?, 'subagent')").run(ID, ws);
  else db.prepare('INSERT INTO sessions (id, started_at, cwd) VALUES (?, 1790000000, ?)').run(ID, ws);
  db.close();
  const t = Math.floor(Date.now() / 1000) - 60;
  utimesSync(path, t, t);
}

describe('hermes columns memory', () => {
  it('a settled store is probed once; the same path holding another file is read afresh', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-hermes-cols-')));
    roots.push(root);
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    mkdirSync(join(home, '.hermes'), { recursive: true });
    mkdirSync(ws);
    const dbPath = join(home, '.hermes', 'state.db');
    makeDb(dbPath, false, ws);
    const hermes = new HermesAdapter(nodePorts());
    const ctx = { workspace: ws, home, env: { HOME: home } };
    expect(await hermes.verifyArtifact(ID, ctx)).toBe(true);
    expect(await hermes.discover(ctx)).toEqual([ID]);
    expect(await hermes.verifyArtifact(ID, ctx)).toBe(true);
    // Another file in its place, settled too, with a `source` column: read with the old columns the row would still verify.
    const other = join(root, 'other.db');
    makeDb(other, true, ws);
    renameSync(other, dbPath);
    expect(await hermes.verifyArtifact(ID, ctx)).toBe(false);
    expect(await hermes.discover(ctx)).toEqual([]);
  });

  it('a settled store keeps its recorded directories; a session of a new directory, written later, is discovered', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-hermes-dirs-')));
    roots.push(root);
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    const ws2 = join(root, 'ws2');
    mkdirSync(join(home, '.hermes'), { recursive: true });
    mkdirSync(ws);
    mkdirSync(ws2);
    const dbPath = join(home, '.hermes', 'state.db');
    makeDb(dbPath, false, ws);
    const hermes = new HermesAdapter(nodePorts());
    const ctx2 = { workspace: ws2, home, env: { HOME: home } };
    expect(await hermes.discover({ ...ctx2, workspace: ws })).toEqual([ID]);
    expect(await hermes.discover(ctx2)).toEqual([]);
    const db = new Database(dbPath);
    db.prepare('INSERT INTO sessions (id, started_at, cwd) VALUES (?, 1790000100, ?)').run('20260101_130000_0000beef', ws2);
    db.close();
    // Written half a minute ago (settled by now): its lstat is not the one the directories were remembered under.
    const t = Math.floor(Date.now() / 1000) - 30;
    utimesSync(dbPath, t, t);
    expect(await hermes.discover(ctx2)).toEqual(['20260101_130000_0000beef']);
  });
});
