// A moved or copied CODEX_HOME: the rows' rollout_path still names the old place, the rollouts are under the new home.
// Discover returned nothing; the rollout is now found by id under the home (the real codex fixture, copied).
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import { materializeStage } from '../../../helpers/real-stage.js';
import { strs } from '../../../helpers/artifact-strings.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const adapter = getAdapter('codex');
const A = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const B = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';

function moved(keepOld: boolean): { ctx: { workspace: string; home: string; env: Record<string, string> }; codex: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-moved-'));
  roots.push(root);
  const s = materializeStage('codex/03-two-sessions', root);
  const home = join(root, 'elsewhere', 'home');
  cpSync(s.home, home, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  if (!keepOld) rmSync(s.home, { recursive: true });
  const codex = join(home, '.codex');
  return { ctx: { workspace: join(root, 'ws-codex'), home: home, env: { HOME: home, CODEX_HOME: codex } }, codex, root };
}

describe('a moved CODEX_HOME', () => {
  it('discover no longer returns nothing when the rows\' rollout_path is stale', async () => {
    const { ctx, root } = moved(false);
    expect(await adapter.discover(ctx)).toEqual([A]);
    expect(await adapter.discover({ ...ctx, workspace: join(root, 'ws-codex2') })).toEqual([B]);
    expect(await adapter.verifyArtifact(A, ctx, 'discover')).toBe(true);
  });

  it('a purge in the moved home removes its rollout and rows; residual empty', async () => {
    const { ctx, codex } = moved(false);
    const purged = strs(await adapter.purgeArtifacts(A, ctx));
    expect(purged.some((p) => p.startsWith(join(codex, 'sessions')) && p.endsWith(`${A}.jsonl`))).toBe(true);
    expect(await adapter.residualArtifacts(A, ctx)).toEqual([]);
    expect(await adapter.discover(ctx)).toEqual([]);
  });

  it('a copy next to the original: discover reads the copy\'s own rollout, and a purge never touches the original', async () => {
    const { ctx, root } = moved(true);
    expect(await adapter.discover(ctx)).toEqual([A]);
    await adapter.purgeArtifacts(A, ctx);
    const original = join(root, 'home-codex', '.codex', 'sessions', '2026', '11', '30', `rollout-2026-11-30T00-36-29-${A}.jsonl`);
    expect(existsSync(original)).toBe(true);
    // The recorded path into the other copy stays, named in the residual with the row that records it.
    expect(strs(await adapter.residualArtifacts(A, ctx))).toContain(original);
  });
});
