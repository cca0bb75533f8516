// The codex adapter on the files the real Codex 0.171 CLI wrote (test/fixtures/real/codex): discovery, verification,
// and a purge that removes exactly what EXPECTED.json lists of one conversation and nothing else.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { dumpRows, hashTree, rowNames } from '../../../helpers/adapter-codex-tree.js';
import { type ExpectedConversation, materializeStage, type RealStage, realStages } from '../../../helpers/real-stage.js';
import { strs } from '../../../helpers/artifact-strings.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function stage(name: string): RealStage {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-real-'));
  roots.push(root);
  return materializeStage(name, root);
}

function ctxOf(s: RealStage, workspace: string): HomeDiscoveryContext {
  return { workspace, home: s.home, env: s.env };
}

// EXPECTED lists a conversation under its workspace; one whose rollout and rows are gone (status leftovers-only) has
// nothing to resume and is not a candidate.
function resumable(s: RealStage, ws: string): ExpectedConversation[] {
  return s.expected.conversations.filter((c) => c.workspace === ws && c.status === 'present');
}

const STAGES = realStages('codex');
const adapter = getAdapter('codex');

describe('codex adapter on the real stages', () => {
  it('has the five real stages', () => {
    expect(STAGES).toEqual(['codex/01-after-exec-and-resume', 'codex/02-after-archive', 'codex/03-two-sessions', 'codex/04-after-delete-force', 'codex/06-after-sigkill']);
  });

  it.each(STAGES)('%s: discover finds exactly the workspace\'s conversations, newest first', async (name) => {
    const s = stage(name);
    const workspaces = [...new Set(s.expected.conversations.map((c) => c.workspace).filter((w): w is string => w !== null))];
    expect(workspaces.length).toBeGreaterThan(0);
    for (const ws of workspaces) {
      const want = resumable(s, ws).map((c) => c.id);
      const got = await adapter.discover(ctxOf(s, ws));
      expect([...got].sort(), ws).toEqual([...want].sort());
      // Real ids are UUID v7: time-ordered, so newest first is descending id order here.
      expect(got).toEqual([...got].sort().reverse());
    }
  });

  it('06: the two threads of ws-codex come newest first (the killed one last started)', async () => {
    const s = stage('codex/06-after-sigkill');
    expect(await adapter.discover(ctxOf(s, join(s.root, 'ws-codex')))).toEqual(['01a229f2-dd9f-7f71-b03f-29e4937c4596', '01a229ee-c7e7-7552-8c0d-4fec1afe05e8']);
  });

  it.each(STAGES)('%s: verify accepts each conversation in its workspace and rejects it in the others', async (name) => {
    const s = stage(name);
    const workspaces = ['ws-codex', 'ws-codex2', 'ws-codex3'].map((w) => join(s.root, w));
    for (const c of s.expected.conversations) {
      for (const ws of workspaces) {
        const want = c.status === 'present' && c.workspace === ws;
        for (const mode of ['verify', 'discover'] as const) {
          expect(await adapter.verifyArtifact(c.id, ctxOf(s, ws), mode), `${c.id} ${ws} ${mode}`).toBe(want);
        }
        expect(await adapter.verifyArtifact(c.id.toUpperCase(), ctxOf(s, ws))).toBe(want);
      }
    }
  });

  const CASES = STAGES.flatMap((name) => stage(name).expected.conversations.map((c) => [name, c.id] as const));

  it.each(CASES)('%s: purge %s removes its files and rows and nothing else', async (name, id) => {
    const s = stage(name);
    const conv = s.expected.conversations.find((c) => c.id === id) as ExpectedConversation;
    const ctx = ctxOf(s, conv.workspace ?? s.home);
    const own = new Set(conv.files.map((f) => f.replace(/\/$/, '')));
    const dbs = [...new Set(s.expected.sqlite.map((d) => d.db))];
    const touched = new Set(conv.db_rows.filter((r) => r.exact_matches > 0).map((r) => r.db));
    const before = hashTree(s.home);
    const rowsBefore = new Map(dbs.map((d) => [d, dumpRows(s.abs(d))] as const));
    for (const f of own) expect(existsSync(s.abs(f)), f).toBe(true);

    expect(await adapter.hasArtifacts(id, ctx)).toBe(true);
    const purged = strs(await adapter.purgeArtifacts(id, ctx));

    expect(purged.filter((p) => !p.includes('.sqlite (')).sort()).toEqual([...own].map((f) => s.abs(f)).sort());
    const wantRows = conv.db_rows.filter((r) => r.exact_matches > 0).map((r) => `${s.abs(r.db)} (${r.table}.${r.column}: ${r.exact_matches} rows)`);
    expect(purged.filter((p) => p.includes('.sqlite (')).sort()).toEqual(wantRows.sort());
    for (const f of own) expect(existsSync(s.abs(f)), f).toBe(false);

    // Every other file is byte-identical; a database that held rows of the id lost exactly those rows.
    const after = hashTree(s.home);
    for (const [rel, hash] of before) {
      if (own.has(rel) || touched.has(rel)) continue;
      expect(after.get(rel), rel).toBe(hash);
    }
    expect([...after.keys()].filter((k) => !before.has(k))).toEqual([]);
    for (const d of dbs) {
      const was = rowsBefore.get(d) as string[];
      const now = dumpRows(s.abs(d));
      expect(now, d).toEqual(was.filter((line) => !rowNames(line, id)));
      const gone = was.length - now.length;
      expect(gone, d).toBe(conv.db_rows.filter((r) => r.db === d).reduce((n, r) => n + r.exact_matches, 0));
    }

    expect(strs(await adapter.residualArtifacts(id, ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(id, ctx)).toBe(false);
    expect(strs(await adapter.mentions(id, ctx))).toEqual(conv.shared_files_mentioning_id.map((f) => s.abs(f)));
  });

  it.each(CASES)('%s: residual of %s before a purge lists exactly its files and rows', async (name, id) => {
    const s = stage(name);
    const conv = s.expected.conversations.find((c) => c.id === id) as ExpectedConversation;
    const ctx = ctxOf(s, conv.workspace ?? s.home);
    const rows = conv.db_rows.filter((r) => r.exact_matches > 0).map((r) => `${s.abs(r.db)} (${r.table}.${r.column}: ${r.exact_matches} rows)`);
    expect((strs(await adapter.residualArtifacts(id, ctx))).sort()).toEqual([...conv.files.map((f) => s.abs(f)), ...rows].sort());
  });
});
