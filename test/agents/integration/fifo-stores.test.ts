// A FIFO named like a conversation file (a Claude transcript, a Codex rollout, a grok summary.json) must never be opened
// for reading: opening one with no writer blocks forever (issue 13). Every adapter call returns promptly without
// throwing; the FIFO is never taken for a conversation (not discovered, not verified), and a purge of the id it is named
// by unlinks it (never opening it) and lists it as purged.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import { encodeGrokCwd } from '../../../src/agents/grok/grok-encode.js';
import type { AgentAdapter, HomeDiscoveryContext } from '../../../src/agents/types.js';
import { buildCodexHome, rolloutPath, v7, type ThreadSpec } from '../../helpers/adapter-codex-home.js';
import { strs } from '../../helpers/artifact-strings.js';
import { GROK_IDS, materializeGrokStage } from '../../helpers/adapter-grok-stage.js';
import { writeTranscript } from '../../helpers/adapter-claude-sandbox.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function tempRoot(tag: string): string {
  const r = mkdtempSync(join(tmpdir(), tag));
  roots.push(r);
  return r;
}
function fifoAt(path: string): void {
  rmSync(path, { force: true });
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
}

// Every entry point, each awaited (a hang fails the test by its timeout); what each answered, as strings.
async function everyCall(a: AgentAdapter, id: string, ctx: HomeDiscoveryContext) {
  const discovered = await a.discover(ctx);
  const verified = await a.verifyArtifact(id, ctx);
  const discoverMode = await a.verifyArtifact(id, ctx, 'discover');
  const plan = await a.planPurge(id, ctx);
  const before = strs(await a.residualArtifacts(id, ctx));
  const purged = strs(await a.purgeArtifacts(id, ctx));
  const residual = strs(await a.residualArtifacts(id, ctx));
  return { discovered, verified, discoverMode, plan, before, purged, residual };
}

describe('a FIFO named like a conversation file is never read', () => {
  it('Claude: a FIFO at projects/<key>/<id>.jsonl is not discovered and every call returns', async () => {
    const root = tempRoot('mam-fifo-claude-');
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    mkdirSync(ws, { recursive: true });
    const ctx: HomeDiscoveryContext = { workspace: ws, home: home, env: { TMPDIR: join(root, 'tmp') } };
    const other = '11111111-1111-4111-8111-111111111111';
    const id = '22222222-2222-4222-8222-222222222222';
    const sb = { root, home, config: join(home, '.claude'), ws, tmp: join(root, 'tmp'), env: ctx.env as Record<string, string>, ctx: () => ctx, dispose: async () => {} };
    writeTranscript(sb, other);
    const fifo = join(home, '.claude', 'projects', claudeProjectKey(ws), `${id}.jsonl`);
    fifoAt(fifo);
    const r = await everyCall(getAdapter('claude'), id, ctx);
    expect(r.discovered).toEqual([other]);
    expect(r.verified).toBe(false);
    expect(r.discoverMode).toBe(false);
    expect(r.before).toEqual([fifo]);
    expect(r.purged).toEqual([fifo]);
    expect(r.residual).toEqual([]);
    expect(existsSync(fifo)).toBe(false);
  }, 10_000);

  it('Codex: a FIFO in place of a rollout is not discovered and every call returns', async () => {
    const root = tempRoot('mam-fifo-codex-');
    const homeDir = join(root, 'home');
    const ws = join(root, 'ws');
    const [a, b]: ThreadSpec[] = [
      { id: v7(1), cwd: ws, updated: 2_000_000_000 },
      { id: v7(2), cwd: ws, updated: 2_000_000_500 },
    ];
    for (const db of [true, false]) {
      rmSync(homeDir, { recursive: true, force: true });
      buildCodexHome(homeDir, [a as ThreadSpec, b as ThreadSpec], { db });
      const fifo = rolloutPath(homeDir, b as ThreadSpec);
      fifoAt(fifo);
      const ctx: HomeDiscoveryContext = { workspace: ws, home: homeDir, env: { CODEX_HOME: join(homeDir, '.codex') } };
      const r = await everyCall(getAdapter('codex'), (b as ThreadSpec).id, ctx);
      expect(r.discovered).not.toContain((b as ThreadSpec).id);
      expect(r.discovered).toContain((a as ThreadSpec).id);
      expect(r.verified).toBe(false);
      expect(r.before).toContain(fifo);
      expect(r.purged).toContain(fifo);
      expect(r.residual).toEqual([]);
      expect(existsSync(fifo)).toBe(false);
      expect(existsSync(rolloutPath(homeDir, a as ThreadSpec))).toBe(true);
    }
  }, 15_000);

  it('grok: a FIFO in place of summary.json leaves every call returning (the dir planned by its name)', async () => {
    const st = materializeGrokStage(tempRoot('mam-fifo-grok-'));
    const dir = join(st.grok, 'sessions', encodeGrokCwd(st.wsA) ?? 'x', GROK_IDS.a1);
    fifoAt(join(dir, 'summary.json'));
    const ctx: HomeDiscoveryContext = { workspace: st.wsA, home: st.home, env: {} };
    const r = await everyCall(getAdapter('grok'), GROK_IDS.a1, ctx);
    expect(r.discovered).not.toContain(GROK_IDS.a1);
    expect(r.verified).toBe(false);
    expect(r.before).toContain(dir);
    expect(r.purged).toContain(dir);
    expect(r.residual).toEqual([]);
    expect(existsSync(dir)).toBe(false);
  }, 10_000);
});
