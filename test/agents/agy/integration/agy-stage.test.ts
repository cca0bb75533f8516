import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../../src/agents/agy/agy-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { hashTree } from '../../../helpers/adapter-agy-files.js';
import { type AgyStage, buildAgyStage } from '../../../helpers/adapter-agy-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let stage: AgyStage;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-stage-'));
  stage = await buildAgyStage(dir);
});
afterEach(() => dispose());

const agy = () => new AgyAdapter(nodePorts({ env: {} }));

describe('agy on a seed-shaped stage (two workspaces, a superseded conversation, orphaned leftovers)', () => {
  it('discover finds exactly the conversations each workspace is known to have, newest first', async () => {
    for (const ws of [stage.wsA, stage.wsB]) {
      const want = stage.conversations.filter((c) => c.workspace === ws && c.status === 'present').map((c) => c.id);
      expect(await agy().discover({ workspace: ws, home: stage.home })).toEqual(want);
    }
  });

  it('verify accepts each conversation of the workspace and rejects those of the other, in both modes', async () => {
    for (const c of stage.conversations.filter((x) => x.workspace !== null)) {
      const here = c.workspace as string;
      const there = here === stage.wsA ? stage.wsB : stage.wsA;
      for (const mode of ['verify', 'discover'] as const) {
        expect(await agy().verifyArtifact(c.id, { workspace: here, home: stage.home }, mode), `${c.id} ${mode}`).toBe(true);
        expect(await agy().verifyArtifact(c.id, { workspace: there, home: stage.home }, mode), `${c.id} ${mode} elsewhere`).toBe(false);
      }
    }
    const orphan = stage.conversations.find((c) => c.status === 'leftovers-only');
    expect(await agy().verifyArtifact(orphan?.id ?? '', { workspace: stage.wsA, home: stage.home })).toBe(false);
  });

  it.each([0, 1, 2, 3])('purging conversation #%i removes its own artifacts and nothing else, and names the shared cache', async (n) => {
    const c = stage.conversations[n];
    if (c === undefined) throw new Error('no such conversation');
    const ctx = { workspace: c.workspace ?? stage.wsA, home: stage.home };
    const mine = new Set(c.files.map((f) => relative(dir, f)));
    const isMine = (rel: string): boolean => [...mine].some((m) => rel === m || rel.startsWith(`${m}/`));
    const before = hashTree(dir, isMine);
    expect(await agy().hasArtifacts(c.id, ctx)).toBe(true);

    const purged = strs(await agy().purgeArtifacts(c.id, ctx));
    expect([...purged].sort()).toEqual(c.files);
    for (const f of c.files) expect(existsSync(f), f).toBe(false);
    expect(hashTree(dir)).toEqual(before);
    expect(strs(await agy().mentions(c.id, ctx))).toEqual(c.mentions);
    expect(strs(await agy().residualArtifacts(c.id, ctx))).toEqual([]);
    expect(await agy().hasArtifacts(c.id, ctx)).toBe(false);
    for (const other of stage.conversations.filter((x) => x !== c)) expect(await agy().hasArtifacts(other.id, ctx)).toBe(true);
  });
});
