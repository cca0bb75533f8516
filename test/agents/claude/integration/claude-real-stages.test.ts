// The claude adapter against what Claude Code 2.1.197 really wrote (test/fixtures/real/claude/*), materialised under a temp
// root: discovery per workspace, verification, and a purge of every conversation in a fresh copy, checked byte for byte.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../../src/agents/claude/claude-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { treeDigest } from '../../../helpers/adapter-claude-sandbox.js';
import { materializeStage, type RealStage, readExpected, realStages } from '../../../helpers/real-stage.js';
import { strs } from '../../../helpers/artifact-strings.js';

const ports = nodePorts();
const claude = new ClaudeAdapter(ports);
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function stage(name: string): RealStage & { ctx(ws: string): { workspace: string; home: string; env: Record<string, string> } } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-claude-real-')));
  roots.push(root);
  const st = materializeStage(name, root);
  // materializeStage means to create the workspaces but filters them by the old root after rewriting them: make them here.
  for (const c of st.expected.conversations) if (c.workspace !== null) mkdirSync(c.workspace, { recursive: true });
  const env = { TMPDIR: join(root, 'tmp') };
  return { ...st, ctx: (ws) => ({ workspace: ws, home: st.home, env }) };
}

const trim = (p: string): string => p.replace(/\/$/, '');

// When a conversation started: the first record carrying a top-level timestamp (a /clear transcript opens with records that have none).
function firstTimestamp(path: string): number {
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const ts = line === '' ? undefined : (JSON.parse(line) as { timestamp?: unknown }).timestamp;
    if (typeof ts === 'string') return Date.parse(ts);
  }
  throw new Error(`no timestamp in ${path}`);
}
const STAGES = realStages('claude');

describe.each(STAGES)('real stage %s', (name) => {
  const expected = readExpected(name);
  const workspaces = [...new Set(expected.conversations.map((c) => c.workspace).filter((w): w is string => w !== null))];

  it('has conversations to test', () => {
    expect(expected.conversations.filter((c) => c.status === 'present').length).toBeGreaterThan(2);
  });

  it.each(workspaces)('discover(%s) finds exactly its resumable conversations, newest first', async (rawWs) => {
    const st = stage(name);
    const ws = st.root + rawWs.slice('/home/dev'.length);
    const mine = st.expected.conversations.filter((c) => c.workspace === ws && c.status === 'present');
    const starts = mine.map((c) => ({ id: c.id, start: firstTimestamp(st.abs(c.transcript ?? '')) }));
    const newestFirst = starts.sort((a, b) => b.start - a.start).map((s) => s.id);
    expect(await claude.discover(st.ctx(ws))).toEqual(newestFirst);
    for (const c of st.expected.conversations) {
      expect(await claude.verifyArtifact(c.id, st.ctx(ws)), `${c.id} in ${ws}`).toBe(c.workspace === ws && c.status === 'present');
    }
  });

  it('a session started in a linked cwd (recorded as its realpath) is found through the link', async () => {
    const st = stage(name);
    const link = join(st.root, 'ws-claude-link');
    symlinkSync(join(st.root, 'ws-claude'), link);
    expect(await claude.discover(st.ctx(link))).toEqual(await claude.discover(st.ctx(join(st.root, 'ws-claude'))));
    expect(await claude.discover(st.ctx(link))).toContain('1286deb1-4449-4738-ba2e-11b172ab58a7');
  });

  it.each(expected.conversations.map((c) => [c.id, c.status]))('purge %s (%s): its files go, nothing else changes, shared files are mentions', async (id) => {
    const st = stage(name);
    const conv = st.expected.conversations.find((c) => c.id === id);
    if (conv === undefined) throw new Error(id);
    const ctx = st.ctx(conv.workspace ?? st.root);
    const own = conv.files.map((f) => trim(st.abs(f)));
    const before = treeDigest(st.root);

    expect(await claude.hasArtifacts(id, ctx)).toBe(own.length > 0);
    expect((strs(await claude.residualArtifacts(id, ctx))).sort()).toEqual([...own].sort());
    expect(await claude.conversationInUse(id, ctx)).toBe(false);
    expect((strs(await claude.purgeArtifacts(id, ctx))).sort()).toEqual([...own].sort());

    const after = treeDigest(st.root);
    for (const [rel, digest] of before) {
      const p = join(st.root, rel);
      const removed = own.some((o) => p === o || p.startsWith(`${o}/`));
      if (removed) expect(after.has(rel), `${rel} should be gone`).toBe(false);
      else expect(after.get(rel), `${rel} must be untouched`).toBe(digest);
    }
    expect(after.size).toBe([...before.keys()].filter((rel) => !own.some((o) => join(st.root, rel) === o || join(st.root, rel).startsWith(`${o}/`))).length);
    expect(strs(await claude.residualArtifacts(id, ctx))).toEqual([]);
    expect(await claude.hasArtifacts(id, ctx)).toBe(false);
    expect((strs(await claude.mentions(id, ctx))).sort()).toEqual(conv.shared_files_mentioning_id.map((f) => st.abs(f)).sort());
    expect(conv.db_rows).toEqual([]);
  });
});
