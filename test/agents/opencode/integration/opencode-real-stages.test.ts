// The opencode adapter on the REAL OpenCode 1.18.33 stages (test/fixtures/real/opencode), checked against each stage's
// EXPECTED.json: discovery per workspace, verification, and a purge that removes exactly the conversation's rows.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { dumpRows } from '../../../helpers/adapter-opencode-db.js';
import { hashTree, isDbFile, opencodeStage } from '../../../helpers/adapter-opencode-stage.js';
import { readExpected, realStages } from '../../../helpers/real-stage.js';
import { strs } from '../../../helpers/artifact-strings.js';

const adapter = new OpencodeAdapter(nodePorts());
let root: string;
let n = 0;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-real-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const fresh = (stage: string) => opencodeStage(stage, join(root, `r${n++}`));
const STAGES = realStages('opencode');

it('finds the four real OpenCode stages', () => {
  expect(STAGES).toEqual(['opencode/02-after-session-delete', 'opencode/03-two-sessions-before-delete', 'opencode/04-after-cross-project-delete', 'opencode/06-after-tui']);
});

describe.each(STAGES)('%s', (stage) => {
  const raw = readExpected(stage);
  const present = raw.conversations.filter((c) => c.status === 'present');
  const workspaces = [...new Set(raw.conversations.map((c) => c.workspace).filter((w): w is string => w !== null))];

  it('discovers exactly the present conversations of each workspace, newest first', async () => {
    const s = fresh(stage);
    for (const ws of workspaces) {
      const mine = s.expected.conversations.filter((c) => c.status === 'present' && c.workspace === s.root + ws.slice('/home/dev'.length));
      // OpenCode ids sort newest first.
      const want = mine.map((c) => c.id).sort();
      const wsPath = s.root + ws.slice('/home/dev'.length);
      expect(await adapter.discover(s.ctx(wsPath)), wsPath).toEqual(want);
    }
  });

  it('verifies each present conversation in its workspace only, and no mentioned-only id', async () => {
    const s = fresh(stage);
    for (const c of s.expected.conversations) {
      for (const ws of workspaces.map((w) => s.root + w.slice('/home/dev'.length))) {
        const want = c.status === 'present' && c.workspace === ws;
        expect(await adapter.verifyArtifact(c.id, s.ctx(ws)), `${c.id} in ${ws}`).toBe(want);
        expect(await adapter.verifyArtifact(c.id, s.ctx(ws), 'discover')).toBe(want);
      }
    }
  });

  it.each(present.map((c) => c.id))('purges %s: its rows exactly, nothing else; residual empty, mentions = shared files', async (id) => {
    const s = fresh(stage);
    const conv = s.expected.conversations.find((c) => c.id === id);
    if (conv === undefined || conv.workspace === null) throw new Error('no conversation');
    const ctx = s.ctx(conv.workspace);
    const hashes = hashTree(s.home, isDbFile);
    const others = dumpRows(s.db, [id]);
    expect(await adapter.hasArtifacts(id, ctx)).toBe(true);
    const exact = conv.db_rows.filter((r) => r.exact_matches > 0).map((r) => `${s.abs(r.db)} (${r.table}.${r.column}: ${r.exact_matches} rows)`);
    expect((strs(await adapter.residualArtifacts(id, ctx))).sort()).toEqual([...exact].sort());

    const purged = strs(await adapter.purgeArtifacts(id, ctx));

    expect([...purged].sort()).toEqual([...exact].sort());
    expect(hashTree(s.home, isDbFile)).toEqual(hashes);
    expect(dumpRows(s.db)).toEqual(others);
    expect(strs(await adapter.residualArtifacts(id, ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(id, ctx)).toBe(false);
    expect(strs(await adapter.mentions(id, ctx))).toEqual(conv.shared_files_mentioning_id.map((f) => s.abs(f)));
    expect(await adapter.discover(ctx)).not.toContain(id);
  });

  it('has nothing to purge for a mentioned-only id, and names the log that mentions it', async () => {
    const s = fresh(stage);
    for (const c of s.expected.conversations.filter((x) => x.status === 'mentioned-only')) {
      const ctx = s.ctx(c.workspace ?? s.home);
      const hashes = hashTree(s.home);
      expect(await adapter.hasArtifacts(c.id, ctx)).toBe(false);
      expect(strs(await adapter.purgeArtifacts(c.id, ctx))).toEqual([]);
      expect(strs(await adapter.mentions(c.id, ctx))).toEqual(c.shared_files_mentioning_id.map((f) => s.abs(f)));
      expect(hashTree(s.home)).toEqual(hashes);
    }
  });
});
