import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../../src/agents/agy/agy-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { SessionRow } from '../../../../src/registry/session-row.js';
import { agyTreePaths, freshId, writeAgyCache } from '../../../helpers/adapter-agy-files.js';
import { agyConversationSql, trajectoryBlob } from '../../../helpers/adapter-agy-proto.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { stopAll } from '../../../helpers/proc-children.js';
import { WAL_STATES, type WalFixture, buildWalState, snapshotDir } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let fx: WalFixture | undefined;
let fx2: WalFixture | undefined;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-wal-'));
});
afterEach(async () => {
  await fx?.stop();
  await fx2?.stop();
  fx = undefined;
  fx2 = undefined;
  await dispose();
});
afterAll(() => stopAll());

const SQL = ['CREATE TABLE steps (id INTEGER, body TEXT)', "INSERT INTO steps VALUES (1, 'only in the wal until a checkpoint')"];
const QUERIES = ['discover', 'verify', 'verify-discover', 'residual', 'hasArtifacts', 'mentions', 'capture', 'inUse'] as const;

// The main file alone, copied and read without its sidecars: what a reader that skipped the WAL would see.
function tablesInMainFileAlone(db: string): number {
  const copy = join(dir, 'main-alone.db');
  copyFileSync(db, copy);
  const conn = new Database(copy, { readonly: true });
  try {
    return conn.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number;
  } finally {
    conn.close();
  }
}

describe.each(WAL_STATES)('agy reads its conversation database in the %s state without touching its directory', (state) => {
  it.each(QUERIES)('%s', async (query) => {
    const home = join(dir, 'home');
    const ws = join(dir, 'ws');
    mkdirSync(ws, { recursive: true });
    const id = freshId();
    const db = agyTreePaths(home, id).db;
    mkdirSync(join(db, '..'), { recursive: true });
    writeAgyCache(home, { [ws]: id });
    fx = await buildWalState(state, db, SQL);
    const conversations = join(db, '..');
    const listing = snapshotDir(conversations);
    expect(listing.map((l) => l.split(' ')[0])).toEqual(fx.names);
    if (state !== 'clean') expect(tablesInMainFileAlone(db)).toBe(0);

    const agy = new AgyAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: ws, home: home };
    const row: SessionRow = { name: 's-agy', status: 'running', agent: 'agy', herdr_session_epoch: 0, pane: { cwd: ws, pid: fx.writer?.pid ?? 999_999_999 } };
    switch (query) {
      case 'discover':
        expect(await agy.discover(ctx)).toEqual([id]);
        break;
      case 'verify':
        expect(await agy.verifyArtifact(id, ctx)).toBe(true);
        break;
      case 'verify-discover':
        expect(await agy.verifyArtifact(id, ctx, 'discover')).toBe(true);
        break;
      case 'residual':
        expect((strs(await agy.residualArtifacts(id, ctx))).sort()).toEqual(fx.names.map((n) => join(conversations, n)).sort());
        break;
      case 'hasArtifacts':
        expect(await agy.hasArtifacts(id, ctx)).toBe(true);
        break;
      case 'mentions':
        expect(strs(await agy.mentions(id, ctx))).toHaveLength(1);
        break;
      case 'capture':
        // Only the live writer holds the database: it proves the candidate as the pane's process.
        expect(await agy.captureActiveSessionId(row, ctx)).toEqual(state === 'writer' ? { kind: 'captured', id } : { kind: 'none', reason: 'unprovable', candidates: [id] });
        break;
      case 'inUse':
        expect(await agy.conversationInUse(id, ctx)).toBe(state === 'writer');
        break;
      default: {
        const never: never = query;
        throw new Error(String(never));
      }
    }
    expect(snapshotDir(conversations)).toEqual(listing);
  });
});

const SUMMARIES = [
  "CREATE TABLE `conversation_summaries` (`conversation_id` text,`title` text NOT NULL DEFAULT \"\",`workspace_uris` text NOT NULL,`parent_conversation_id` text NOT NULL DEFAULT \"\",PRIMARY KEY (`conversation_id`))",
];
const REAL_QUERIES = ['discover', 'verify-discover', 'residual', 'mentions', 'purge-rows'] as const;

// The real layout: the workspace is recorded only inside the conversation's own database (no cache entry), and the
// shared summaries index names it — both in the same WAL state, both read without a trace.
describe.each(WAL_STATES)('agy reads the workspace record and the summaries index in the %s state without touching a directory', (state) => {
  it.each(REAL_QUERIES)('%s', async (query) => {
    const home = join(dir, 'home');
    const ws = join(dir, 'ws');
    mkdirSync(ws, { recursive: true });
    const id = freshId();
    const db = agyTreePaths(home, id).db;
    const conversations = join(db, '..');
    const root = join(conversations, '..');
    mkdirSync(conversations, { recursive: true });
    fx = await buildWalState(state, db, agyConversationSql(id, trajectoryBlob({ workspaces: [ws] })));
    const summaries = join(root, 'conversation_summaries.db');
    fx2 = await buildWalState(state, summaries, [...SUMMARIES, `INSERT INTO conversation_summaries (conversation_id, workspace_uris) VALUES ('${id}', '["file://${ws}"]')`]);
    const listings = [snapshotDir(conversations), snapshotDir(root)];
    if (state !== 'clean') expect(tablesInMainFileAlone(db)).toBe(0);

    const agy = new AgyAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: ws, home: home };
    switch (query) {
      case 'discover':
        expect(await agy.discover(ctx)).toEqual([id]);
        break;
      case 'verify-discover':
        expect(await agy.verifyArtifact(id, ctx, 'discover')).toBe(true);
        expect(await agy.verifyArtifact(id, { ...ctx, workspace: dir }, 'verify')).toBe(false);
        break;
      case 'residual':
        expect(strs(await agy.residualArtifacts(id, ctx))).toContain(`${summaries} (conversation_summaries.conversation_id: 1 rows)`);
        break;
      case 'mentions':
        expect(strs(await agy.mentions(id, ctx))).toEqual([]);
        break;
      case 'purge-rows': {
        // The one write: the index's row (possibly only in its -wal) is deleted through SQLite, which keeps its sidecars.
        await fx.stop();
        expect(strs(await agy.purgeArtifacts(id, ctx))).toContain(`${summaries} (conversation_summaries.conversation_id: 1 rows)`);
        expect((strs(await agy.residualArtifacts(id, ctx))).filter((r) => r.includes('conversation_summaries'))).toEqual([]);
        return;
      }
      default: {
        const never: never = query;
        throw new Error(String(never));
      }
    }
    expect([snapshotDir(conversations), snapshotDir(root)]).toEqual(listings);
  });
});
