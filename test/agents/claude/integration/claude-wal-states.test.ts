// Claude Code 2.x keeps no database; a SQLite store at the top of its config root is a layout the adapter does not know.
// Every query reads it read-only in all four WAL states (the directory stays exactly as it was, rows only in -wal are seen),
// and a purge of a conversation it names removes nothing and says why.
import { copyFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../../src/agents/claude/claude-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeTranscript } from '../../../helpers/adapter-claude-sandbox.js';
import { buildWalState, snapshotDir, WAL_STATES, type WalFixture } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';

const claude = new ClaudeAdapter(nodePorts());
let sb: ClaudeSandbox;
let fx: WalFixture | undefined;

beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(async () => {
  await fx?.stop();
  fx = undefined;
  await sb.dispose();
});

const T0 = Date.parse('2026-11-30T00:00:00.000Z');

// What a reader of the main file alone sees: the WAL states keep every row in -wal.
function rowsInMainFileAlone(db: string): number {
  const copy = join(sb.root, 'main-only.db');
  copyFileSync(db, copy);
  const h = new Database(copy, { readonly: true });
  try {
    const has = h.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'base_messages'").pluck().get() as number;
    return has === 0 ? 0 : (h.prepare('SELECT count(*) FROM base_messages').pluck().get() as number);
  } finally {
    h.close();
  }
}

async function store(state: (typeof WAL_STATES)[number], rows: Array<[string, string, number]>): Promise<string> {
  const db = join(sb.config, '__store.db');
  const sql = [
    'PRAGMA journal_mode=WAL',
    'CREATE TABLE base_messages (uuid TEXT PRIMARY KEY, session_id TEXT NOT NULL, cwd TEXT NOT NULL, timestamp INTEGER NOT NULL, message_type TEXT)',
    'CREATE TABLE conversation_summaries (leaf_uuid TEXT PRIMARY KEY, summary TEXT)',
    ...rows.map(([sid, cwd, ts], i) => `INSERT INTO base_messages VALUES ('m${i}', '${sid}', '${cwd.replaceAll("'", "''")}', ${ts}, 'user')`),
  ];
  fx = await buildWalState(state, db, sql);
  return db;
}

describe.each(WAL_STATES)('unknown store in the %s state', (state) => {
  it('every query sees its rows (-wal included) and leaves the directory exactly as it was', async () => {
    const [onlyInStore, withTranscript, elsewhere] = [freshId(), freshId(), freshId()];
    writeTranscript(sb, withTranscript, { start: new Date(T0).toISOString() });
    const db = await store(state, [
      [onlyInStore, sb.ws, T0 + 60_000],
      [onlyInStore, sb.ws, T0 + 61_000],
      [withTranscript, sb.ws, T0],
      [elsewhere, '/somewhere/else', T0 + 120_000],
    ]);
    const listing = snapshotDir(sb.config);
    expect(listing.map((l) => l.split(' ')[0])).toEqual([...fx!.names, 'projects'].sort());
    if (state !== 'clean') expect(rowsInMainFileAlone(db)).toBe(0);

    expect(await claude.discover(sb.ctx())).toEqual([onlyInStore, withTranscript]);
    expect(await claude.verifyArtifact(onlyInStore, sb.ctx())).toBe(true);
    expect(await claude.verifyArtifact(elsewhere, sb.ctx())).toBe(false);
    expect(strs(await claude.residualArtifacts(onlyInStore, sb.ctx()))).toEqual([`${db} (base_messages.session_id: 2 rows)`, `${db} (unknown layout: refusing to purge)`]);
    expect(await claude.hasArtifacts(onlyInStore, sb.ctx())).toBe(true);
    expect(await claude.hasArtifacts(freshId(), sb.ctx())).toBe(false);
    const row = { name: 's', status: 'running' as const, agent: 'claude' as const, herdr_session_epoch: (T0 + 30_000) / 1000 };
    expect(await claude.captureActiveSessionId(row, sb.ctx())).toEqual({ kind: 'captured', id: onlyInStore });
    expect(snapshotDir(sb.config)).toEqual(listing);
  });

  it('a purge of a conversation the store names removes nothing and residual names the refusal', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    const db = await store(state, [[id, sb.ws, T0]]);
    const listing = snapshotDir(sb.config);
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
    expect(existsSync(t)).toBe(true);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([t, `${db} (base_messages.session_id: 1 rows)`, `${db} (unknown layout: refusing to purge)`]);
    expect(snapshotDir(sb.config)).toEqual(listing);
    // A conversation the store does not name is purged as usual.
    const other = freshId();
    const t2 = writeTranscript(sb, other);
    expect(strs(await claude.purgeArtifacts(other, sb.ctx()))).toEqual([t2]);
  });
});
