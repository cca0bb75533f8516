// Codex discover and verifyArtifact answer from the state DB's index (one lstat per row) — the answer must be the one a
// full scan of the home gives, reading every rollout's first line: on random homes with rows missing from the DB, stale
// and moved rollout paths, sub-agent rows, archived threads, empty rollouts, a symlinked workspace, an untrusted or absent DB.
import fc from 'fast-check';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodexAdapter } from '../../src/agents/codex/codex-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { buildHome, genId, type GenHome, type GenThread, scanAnswer } from '../helpers/codex-index-home.js';
import { byTier } from '../helpers/tier.js';

const thread: fc.Arbitrary<GenThread> = fc.record({
  cwd: fc.constantFrom('real', 'link', 'other'),
  archived: fc.boolean(),
  row: fc.constantFrom('present', 'present', 'present', 'missing', 'stale', 'moved'),
  subagent: fc.constantFrom('no', 'no', 'no', 'row', 'both'),
  rollout: fc.constantFrom('full', 'full', 'full', 'full', 'none', 'empty'),
  minute: fc.integer({ min: 0, max: 20_000 }),
});

const homes: fc.Arbitrary<GenHome & { epochMinute: number | null }> = fc.record({
  threads: fc.array(thread, { minLength: 1, maxLength: 10 }),
  db: fc.constantFrom('trusted', 'trusted', 'incomplete', 'none'),
  given: fc.constantFrom('real', 'link'),
  epochMinute: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: null }),
});

const BASE_S = Date.UTC(2026, 10, 1) / 1000;

describe('codex: the indexed answer equals a full scan of the home', () => {
  it('discover and verifyArtifact (both modes) on random homes', async () => {
    const codex = new CodexAdapter(nodePorts());
    await fc.assert(
      fc.asyncProperty(homes, async (spec) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-codex-index-')));
        try {
          const h = buildHome(root, spec);
          const epoch = spec.epochMinute === null ? undefined : BASE_S + spec.epochMinute * 60;
          const want = scanAnswer(h.codex, h.workspace, epoch === undefined ? undefined : epoch * 1000);
          expect(await codex.discover({ ...h.ctx, ...(epoch === undefined ? {} : { epoch }) })).toEqual(want.discover);
          const all = scanAnswer(h.codex, h.workspace).discover;
          for (const id of [...h.ids, genId(999)]) {
            expect(await codex.verifyArtifact(id, h.ctx, 'verify'), `verify ${id}`).toBe(want.verify(id));
            expect(await codex.verifyArtifact(id, h.ctx, 'discover'), `verify(discover) ${id}`).toBe(all.includes(id));
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: byTier(15, 40) },
    );
  });
});
