import Database from 'better-sqlite3';
import { copyFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { SessionRow } from '../../../../src/registry/session-row.js';
import { type HermesStage, buildHermesStage, dumpRows } from '../../../helpers/adapter-hermes-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { stopAll } from '../../../helpers/proc-children.js';
import { WAL_STATES, snapshotDir } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let stage: HermesStage | undefined;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-wal-'));
});
afterEach(async () => {
  await stage?.fixture.stop();
  stage = undefined;
  await dispose();
});
afterAll(() => stopAll());

const QUERIES = ['discover', 'verify', 'verify-discover', 'residual', 'hasArtifacts', 'capture', 'inUse'] as const;

function sessionsInMainFileAlone(db: string, tmp: string): number {
  const copy = join(tmp, 'main-alone.db');
  copyFileSync(db, copy);
  const conn = new Database(copy, { readonly: true });
  try {
    return conn.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'sessions'").pluck().get() as number;
  } finally {
    conn.close();
  }
}

describe.each(WAL_STATES)('hermes reads the shared state.db in the %s state without touching its directory', (state) => {
  it.each(QUERIES)('%s', async (query) => {
    stage = await buildHermesStage(dir, state);
    const s = stage;
    const hermesDir = dirname(s.db);
    const listing = snapshotDir(hermesDir);
    if (state !== 'clean') expect(sessionsInMainFileAlone(s.db, dir)).toBe(0);
    const h = new HermesAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: s.wsA, home: s.home };
    const inA = s.sessions.filter((x) => x.workspace === s.wsA).sort((a, b) => b.startedAt - a.startedAt);
    const first = inA[0];
    if (first === undefined) throw new Error('empty stage');
    switch (query) {
      case 'discover':
        expect(await h.discover(ctx)).toEqual(inA.map((x) => x.id));
        expect(await h.discover({ ...ctx, epoch: first.startedAt })).toEqual([first.id]);
        break;
      case 'verify':
        expect(await h.verifyArtifact(first.id, ctx)).toBe(true);
        break;
      case 'verify-discover':
        expect(await h.verifyArtifact(first.id, ctx, 'discover')).toBe(true);
        break;
      case 'residual':
        expect(strs(await h.residualArtifacts(first.id, ctx))).toEqual(first.rows.map((r) => `${s.db} (${r.table}.${r.column}: ${r.count} rows)`));
        break;
      case 'hasArtifacts':
        expect(await h.hasArtifacts(first.id, ctx)).toBe(true);
        break;
      case 'capture': {
        const row: SessionRow = { name: 's-hermes', status: 'running', agent: 'hermes', herdr_session_epoch: first.startedAt };
        expect(await h.captureActiveSessionId(row, ctx)).toEqual({ kind: 'captured', id: first.id });
        break;
      }
      case 'inUse':
        // Holding the shared database is no evidence for one session (every Hermes process holds it); the writer child's
        // command line carries the SQL that names the id, and that counts.
        expect((await h.inUseHolders(first.id, ctx)).map((x) => x.signal)).toEqual(state === 'writer' ? ['command-line'] : []);
        break;
      default: {
        const never: never = query;
        throw new Error(String(never));
      }
    }
    expect(snapshotDir(hermesDir)).toEqual(listing);
  });

  it('purge deletes exactly the rows of the id, keeps every other row, and keeps the sidecars a writer left', async () => {
    stage = await buildHermesStage(dir, state);
    const s = stage;
    const target = s.sessions[0];
    if (target === undefined) throw new Error('empty stage');
    const names = readdirSync(dirname(s.db)).sort();
    const before = await dumpRows(s.db);
    const h = new HermesAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: s.wsA, home: s.home };
    const expected = target.rows.map((r) => `${s.db} (${r.table}.${r.column}: ${r.count} rows)`);
    expect(strs(await h.purgeArtifacts(target.id, ctx))).toEqual(expected);
    const after = await dumpRows(s.db);
    for (const table of Object.keys(before)) {
      const keep = (before[table] ?? []).filter((r) => !Object.values(r as Record<string, unknown>).includes(target.id));
      expect(after[table], table).toEqual(keep);
    }
    // Issue 31: under a live writer the dead-copy pass does not rewrite the file; the old copies its -wal still holds are
    // the id's residual (a purge once the writer is gone finishes them).
    const dead = state === 'writer' ? [expect.stringMatching(/state\.db \(\(deleted rows\)\.\(old copies in the file\): \d+ rows\)$/)] : [];
    expect(strs(await h.residualArtifacts(target.id, ctx))).toEqual(dead);
    expect(await h.hasArtifacts(target.id, ctx)).toBe(state === 'writer');
    // clean: the writable connection was the only one and checkpointed; leftover/writer: both sidecars stay;
    // walonly: SQLite's own recovery rebuilt the index, and the last close checkpointed.
    const kept = { clean: names, leftover: names, writer: names, walonly: ['config.yaml', 'state.db'] }[state];
    expect(readdirSync(dirname(s.db)).sort()).toEqual(kept);
  });
});
