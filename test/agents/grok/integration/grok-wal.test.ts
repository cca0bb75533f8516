import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../../src/agents/grok/grok-encode.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { GROK_FIXTURE, GROK_IDS } from '../../../helpers/adapter-grok-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { stopAll } from '../../../helpers/proc-children.js';
import { WAL_STATES, type WalFixture, buildWalState, snapshotDir } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';
import { filesContaining } from '../../../helpers/finish-interrupt.js';
import { DEAD_COPIES_TABLE } from '../../../../src/sqlite/finish-dead-copies.js';

let dir: string;
let dispose: () => Promise<void>;
let fixture: WalFixture | undefined;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-wal-'));
});
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
  await dispose();
});
afterAll(() => stopAll());

// The exact CREATE batch grok runs, read from the fixture's database (its user tables, FTS table and triggers).
function grokSchema(): string[] {
  const db = new Database(join(GROK_FIXTURE, 'home', '.grok', 'sessions', 'session_search.sqlite'), { readonly: true });
  try {
    return db.prepare("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'session_docs_fts_%' ORDER BY CASE type WHEN 'trigger' THEN 1 ELSE 0 END, rowid").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const { a1, b1 } = GROK_IDS;
const doc = (id: string, cwd: string, text: string) => `INSERT INTO session_docs (session_id, cwd, updated_at, title, content, content_hash) VALUES ('${id}', '${cwd}', 1788256806, '${text}', '${text} body', 'h')`;

async function stage(state: (typeof WAL_STATES)[number], more: readonly string[] = []) {
  const home = join(dir, 'home');
  const ws = join(dir, 'ws');
  const sessions = join(home, '.grok', 'sessions');
  const sessionDir = join(sessions, encodeGrokCwd(ws) ?? 'x', a1);
  mkdirSync(sessionDir, { recursive: true });
  mkdirSync(ws);
  writeFileSync(join(sessionDir, 'summary.json'), JSON.stringify({ info: { id: a1, cwd: ws }, updated_at: '2026-09-01T10:00:06.323456Z' }));
  writeFileSync(join(sessionDir, 'updates.jsonl'), '{}\n');
  const db = join(sessions, 'session_search.sqlite');
  const sql = [...grokSchema(), "INSERT INTO meta VALUES ('session_search_schema_version', '4')", doc(a1, ws, 'calm lake'), doc(b1, ws, 'busy harbor'), ...more];
  fixture = await buildWalState(state, db, sql, { sqlOnCommandLine: true });
  return { home, ws, sessions, sessionDir, db };
}

describe.each(WAL_STATES)('grok\'s search database in the %s state', (state) => {
  it('discover, residual, hasArtifacts, mentions and the plan leave sessions/ exactly as found', async () => {
    const s = await stage(state);
    const listing = snapshotDir(s.sessions);
    const g = new GrokAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: s.ws, home: s.home, env: {} };
    expect(await g.discover(ctx)).toEqual([a1]);
    expect(strs(await g.residualArtifacts(a1, ctx))).toEqual([s.sessionDir, `${s.db} (session_docs.session_id: 1 rows)`]);
    expect(await g.hasArtifacts(b1, ctx)).toBe(true); // a row alone is an artifact
    expect(strs(await g.mentions(a1, ctx))).toEqual([]);
    expect((await g.planPurge(a1, ctx)).refused).toEqual([]);
    // The shared index is held by every grok: holding it (the writer child here, whose argv carries the SQL and so names
    // the id) says nothing about one session.
    expect((await g.inUseHolders(a1, ctx)).filter((h) => h.signal !== 'command-line')).toEqual([]);
    expect(snapshotDir(s.sessions)).toEqual(listing);
  });

  it('purge deletes the row and its FTS entry (the trigger), keeps the other session\'s, and the sidecars a writer left', async () => {
    const s = await stage(state);
    const names = readdirSync(s.sessions).sort();
    const g = new GrokAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: s.ws, home: s.home, env: {} };
    expect(strs(await g.purgeArtifacts(a1, ctx))).toEqual([`${s.db} (session_docs.session_id: 1 rows)`, s.sessionDir]);
    // A live writer keeps the WAL frame that still holds the row (no checkpoint while it holds the database): the
    // residual says so, with why, instead of nothing.
    const left = state === 'writer' ? [expect.stringContaining(DEAD_COPIES_TABLE), expect.stringContaining('while another process holds the database')] : [];
    expect(strs(await g.residualArtifacts(a1, ctx))).toEqual(left);
    await fixture?.stop();
    const kept = { clean: names, leftover: names, writer: names, walonly: names.filter((n) => !n.endsWith('-wal')) }[state];
    expect(readdirSync(s.sessions).sort().filter((n) => n.startsWith('session_search') || n.startsWith('%'))).toEqual(kept);
    const conn = new Database(s.db, { readonly: true });
    try {
      expect(conn.prepare('SELECT session_id FROM session_docs').pluck().all()).toEqual([b1]);
      expect(conn.prepare("SELECT rowid FROM session_docs_fts WHERE session_docs_fts MATCH 'lake'").all()).toEqual([]);
      expect(conn.prepare("SELECT count(*) FROM session_docs_fts WHERE session_docs_fts MATCH 'harbor'").pluck().get()).toBe(1);
    } finally {
      conn.close();
    }
  });

  // Regression (issue 31): grok writes its search database without secure_delete, so its own rewrites of a session's
  // doc leave old copies of the row (the id in them) in free pages and the WAL; the purge's delete never reached them.
  it('after a purge (and a rerun once a live writer is gone) no byte of the id is in the search database\'s files', async () => {
    const rewrite = `UPDATE session_docs SET title = 'calm lake again', content = '${'calm lake rewritten '.repeat(40)}' WHERE session_id = '${a1}'`;
    const s = await stage(state, [rewrite]);
    const ctx = { workspace: s.ws, home: s.home, env: {} };
    await new GrokAdapter(nodePorts({ env: {} })).purgeArtifacts(a1, ctx);
    if (state === 'writer') {
      expect(filesContaining(s.sessions, a1).length).toBeGreaterThan(0);
      await fixture?.stop();
      // A fresh process state: the rerun finds the old copies by the bytes alone and wipes them.
      const again = new GrokAdapter(nodePorts({ env: {} }));
      expect(await again.hasArtifacts(a1, ctx)).toBe(true);
      expect(strs(await again.purgeArtifacts(a1, ctx))).toEqual([expect.stringContaining(DEAD_COPIES_TABLE)]);
    }
    expect(filesContaining(s.sessions, a1)).toEqual([]);
    const g = new GrokAdapter(nodePorts({ env: {} }));
    expect(strs(await g.residualArtifacts(a1, ctx))).toEqual([]);
    expect(await g.hasArtifacts(a1, ctx)).toBe(false);
    const conn = new Database(s.db, { readonly: true });
    try {
      expect(conn.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(conn.prepare('SELECT session_id FROM session_docs').pluck().all()).toEqual([b1]);
      expect(conn.prepare("SELECT count(*) FROM session_docs_fts WHERE session_docs_fts MATCH 'harbor'").pluck().get()).toBe(1);
    } finally {
      conn.close();
    }
  });
});
