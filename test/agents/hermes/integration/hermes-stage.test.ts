import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { hashTree } from '../../../helpers/adapter-agy-files.js';
import { type HermesStage, buildHermesStage, dumpRows } from '../../../helpers/adapter-hermes-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { stopAll } from '../../../helpers/proc-children.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let stage: HermesStage;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-stage-'));
  stage = await buildHermesStage(dir, 'leftover');
});
afterEach(async () => {
  await stage.fixture.stop();
  await dispose();
});
afterAll(() => stopAll());

const hermes = () => new HermesAdapter(nodePorts({ env: {} }));

describe('hermes on a reference-layout stage (two workspaces, rows only in -wal, a session of no Hermes id shape)', () => {
  it('discover finds exactly each workspace\'s sessions, newest first', async () => {
    for (const ws of [stage.wsA, stage.wsB]) {
      const want = stage.sessions.filter((s) => s.workspace === ws).sort((a, b) => b.startedAt - a.startedAt).map((s) => s.id);
      expect(await hermes().discover({ workspace: ws, home: stage.home })).toEqual(want);
    }
  });

  it('verify accepts each session of the workspace and rejects those of the other', async () => {
    for (const s of stage.sessions) {
      const there = s.workspace === stage.wsA ? stage.wsB : stage.wsA;
      for (const mode of ['verify', 'discover'] as const) {
        expect(await hermes().verifyArtifact(s.id, { workspace: s.workspace, home: stage.home }, mode)).toBe(true);
        expect(await hermes().verifyArtifact(s.id, { workspace: there, home: stage.home }, mode)).toBe(false);
      }
    }
  });

  it.each([0, 1, 2, 3, 4])('purging session #%i deletes its rows only; every other file is byte-identical', async (n) => {
    const s = stage.sessions[n];
    if (s === undefined) throw new Error('no such session');
    const ctx = { workspace: s.workspace, home: stage.home };
    const isDb = (rel: string): boolean => rel.startsWith('home/.hermes/state.db');
    const files = hashTree(dir, isDb);
    const rows = await dumpRows(stage.db);
    expect(await hermes().hasArtifacts(s.id, ctx)).toBe(true);
    expect(strs(await hermes().purgeArtifacts(s.id, ctx))).toEqual(s.rows.map((r) => `${stage.db} (${r.table}.${r.column}: ${r.count} rows)`));
    expect(hashTree(dir, isDb)).toEqual(files);
    const after = await dumpRows(stage.db);
    const named = (r: unknown): boolean => Object.values(r as Record<string, unknown>).includes(s.id);
    for (const t of Object.keys(rows)) expect(after[t]).toEqual((rows[t] ?? []).filter((r) => !named(r)));
    expect(strs(await hermes().residualArtifacts(s.id, ctx))).toEqual([]);
    expect(await hermes().hasArtifacts(s.id, ctx)).toBe(false);
    expect(strs(await hermes().mentions(s.id, ctx))).toEqual([]);
    for (const o of stage.sessions.filter((x) => x !== s)) expect(await hermes().hasArtifacts(o.id, ctx)).toBe(true);
  });
});
