// The sidecar-safety laws on Hermes' real schema (stage 03: FTS5 tables and triggers, a compression chain, a delegate
// child), rebuilt by a real SQLite writer child in each WAL state: discover, verify, residual, hasArtifacts, mentions,
// capture and the in-use check leave the directory listing unchanged; a purge removes the whole conversation and keeps
// the sidecars a writer left (saying the WAL still holds the deleted text).
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { SessionRow } from '../../../../src/registry/session-row.js';
import { IDS, realHermesSql } from '../../../helpers/adapter-hermes-real.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { stopAll } from '../../../helpers/proc-children.js';
import { WAL_STATES, type WalFixture, buildWalState, snapshotDir } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let fixture: WalFixture | undefined;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-real-wal-'));
});
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
  await dispose();
});
afterAll(() => stopAll());

async function build(state: (typeof WAL_STATES)[number]) {
  const hermesHome = join(dir, '.hermes');
  const wsA = join(dir, 'ws-hermes-a');
  for (const d of [hermesHome, wsA, join(dir, 'home')]) mkdirSync(d, { recursive: true });
  const db = join(hermesHome, 'state.db');
  fixture = await buildWalState(state, db, realHermesSql('03-delegate', dir), { sqlOnCommandLine: true });
  return { hermesHome, db, ctx: { workspace: wsA, home: join(dir, 'home'), env: { HERMES_HOME: hermesHome } } };
}

describe.each(WAL_STATES)('hermes on the real schema in the %s state', (state) => {
  it('every read leaves the directory listing unchanged', async () => {
    const { hermesHome, ctx } = await build(state);
    const h = new HermesAdapter(nodePorts({ env: {} }));
    const listing = snapshotDir(hermesHome);
    const unchanged = () => expect(snapshotDir(hermesHome)).toEqual(listing);
    expect(await h.discover(ctx)).toEqual([IDS.a4, IDS.a3_child, IDS.a2, IDS.a1]);
    unchanged();
    expect(await h.verifyArtifact(IDS.a3_root, ctx)).toBe(true);
    expect(await h.verifyArtifact(IDS.a3_child, ctx, 'discover')).toBe(true);
    unchanged();
    expect(strs(await h.residualArtifacts(IDS.a4, ctx))).toHaveLength(3);
    expect(await h.hasArtifacts(IDS.a3_root, ctx)).toBe(true);
    expect(strs(await h.mentions(IDS.a3_root, ctx))).toEqual([]);
    unchanged();
    const plan = await h.planPurge(IDS.a3_root, ctx);
    expect(plan.refused).toEqual([]);
    expect(strs(plan.artifacts)).toHaveLength(3);
    expect(plan.notes.some((n) => n.includes('-wal still holds the deleted text'))).toBe(state === 'leftover' || state === 'writer');
    unchanged();
    const row: SessionRow = { name: 's-hermes', status: 'running', agent: 'hermes', herdr_session_epoch: 1796129422.7 };
    expect(await h.captureActiveSessionId(row, ctx)).toEqual({ kind: 'captured', id: IDS.a4 });
    // Holding state.db is no evidence; the writer child's command line carries SQL naming the id, and that counts.
    expect((await h.inUseHolders(IDS.a4, ctx)).map((x) => x.signal)).toEqual(state === 'writer' ? ['command-line'] : []);
    unchanged();
  });

  it('purge removes the whole conversation in one transaction and keeps the sidecars a writer left', async () => {
    const { hermesHome, db, ctx } = await build(state);
    const names = readdirSync(hermesHome).sort();
    const h = new HermesAdapter(nodePorts({ env: {} }));
    const purged = strs(await h.purgeArtifacts(IDS.a4, ctx));
    expect(purged).toEqual([`${db} (messages.session_id: 7 rows)`, `${db} (session_model_usage.session_id: 2 rows)`, `${db} (sessions.id: 2 rows)`]);
    // Issue 31: under a live writer the dead-copy pass does not rewrite the file; the old copies its -wal still holds are
    // the id's residual (a purge once the writer is gone finishes them).
    const dead = state === 'writer' ? [expect.stringMatching(/state\.db \(\(deleted rows\)\.\(old copies in the file\): \d+ rows\)$/)] : [];
    expect(strs(await h.residualArtifacts(IDS.a4, ctx))).toEqual(dead);
    expect(await h.hasArtifacts(IDS.d1, ctx)).toBe(state === 'writer');
    expect(await h.discover(ctx)).toEqual([IDS.a3_child, IDS.a2, IDS.a1]);
    const kept = { clean: names, leftover: names, writer: names, walonly: ['state.db'] }[state];
    expect(readdirSync(hermesHome).sort()).toEqual(kept);
    const walNote = (await h.purgeNotes(IDS.a4, ctx)).some((n) => n.includes('-wal still holds the deleted text'));
    // Issue 31: a crashed writer's WAL (leftover: no process holds it) is checkpointed by the dead-copy pass, emptied and kept.
    expect(walNote).toBe(state === 'writer');
  });
});
