// Capture for Codex (post-discovered): exactly one verified candidate of the workspace, active since the row's session
// began, that no other row records — else the reason.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import type { SessionRow } from '../../../src/registry/session-row.js';
import { buildCodexHome, codexDir, v7, type ThreadSpec } from '../../helpers/adapter-codex-home.js';

const adapter = getAdapter('codex');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const row: SessionRow = { name: 's-codex', status: 'running', agent: 'codex', herdr_session_epoch: 2_000_000_000 };

function home(specs: (ws: string, other: string) => ThreadSpec[]) {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-capture-'));
  roots.push(root);
  const homeDir = join(root, 'home');
  const ws = join(root, 'ws');
  buildCodexHome(homeDir, specs(ws, join(root, 'other')));
  return { workspace: ws, home: homeDir, env: { CODEX_HOME: codexDir(homeDir) } };
}

describe('codex capture', () => {
  it('captures the one thread of the workspace started since the session began', async () => {
    const ctx = home((ws, other) => [
      { id: v7(1), cwd: ws, updated: 1_999_999_000 },
      { id: v7(2), cwd: ws, updated: 2_000_000_100 },
      { id: v7(3), cwd: other, updated: 2_000_000_200 },
    ]);
    expect(await adapter.captureActiveSessionId(row, ctx)).toEqual({ kind: 'captured', id: v7(2) });
  });

  it('two new threads are ambiguous; one of them claimed by another row leaves the other', async () => {
    const ctx = home((ws) => [
      { id: v7(1), cwd: ws, updated: 2_000_000_100 },
      { id: v7(2), cwd: ws, updated: 2_000_000_200 },
    ]);
    expect(await adapter.captureActiveSessionId(row, ctx)).toEqual({ kind: 'none', reason: 'ambiguous', candidates: [v7(2), v7(1)] });
    expect(await adapter.captureActiveSessionId(row, { ...ctx, siblingClaimedIds: [v7(2).toUpperCase()] })).toEqual({ kind: 'captured', id: v7(1) });
    expect(await adapter.verifyArtifact(v7(2), { ...ctx, siblingClaimedIds: [v7(2)] }, 'discover')).toBe(false);
    expect(await adapter.verifyArtifact(v7(2), { ...ctx, siblingClaimedIds: [v7(2)] }, 'verify')).toBe(true);
  });

  it('only older threads: not-newer; claimed: claimed-by-other-row; none: no-candidate', async () => {
    const ctx = home((ws) => [{ id: v7(1), cwd: ws, updated: 1_999_000_000 }]);
    expect(await adapter.captureActiveSessionId(row, ctx)).toEqual({ kind: 'none', reason: 'not-newer', candidates: [v7(1)] });
    expect(await adapter.captureActiveSessionId(row, { ...ctx, siblingClaimedIds: [v7(1)] })).toEqual({ kind: 'none', reason: 'claimed-by-other-row', candidates: [v7(1)] });
    const empty = home(() => []);
    expect(await adapter.captureActiveSessionId(row, empty)).toEqual({ kind: 'none', reason: 'no-candidate', candidates: [] });
  });

  it('discover keeps threads active at or after the epoch, newest first', async () => {
    const ctx = home((ws) => [
      { id: v7(1), cwd: ws, updated: 1_000 },
      { id: v7(2), cwd: ws, updated: 3_000 },
      { id: v7(3), cwd: ws, updated: 2_000 },
    ]);
    expect(await adapter.discover(ctx)).toEqual([v7(2), v7(3), v7(1)]);
    expect(await adapter.discover({ ...ctx, epoch: 2_000 })).toEqual([v7(2), v7(3)]);
  });
});
