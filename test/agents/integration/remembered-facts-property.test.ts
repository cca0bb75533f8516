// Property: an adapter that remembers what a file says (Claude: a transcript's first cwd; Grok: a session's summary.json;
// agy: a conversation database's record, an ACP `.meta` cwd, the last-conversation cache) answers verifyMany and
// verifyArtifact exactly as one that remembers nothing, across appends, rewrites in place (same size where the contents
// allow), replacement by rename, swaps for a link, removal, a sidecar appearing or going, and files left unsettled.
// Everything a step changes is dated to a new past second (what the settle rule stands for: no change within the tick of
// the previous look), except in an `unsettled` step, whose file is dated now.
import fc from 'fast-check';
import { appendFileSync, existsSync, lstatSync, lutimesSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentAdapter } from '../../../src/agents/types.js';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { GrokAdapter } from '../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../src/agents/grok/grok-encode.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { resolvePorts } from '../../../src/node/node-ports.js';
import type { Ports } from '../../../src/ports/index.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { writeAgyAcp, writeAgyRealDb } from '../../helpers/adapter-agy-real-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

// `same-tick`: a file still unsettled (dated now) rewritten in place to the same size within the same timestamp tick
// (its mtime left as it was): only the settle rule keeps that from being answered from memory.
type Op = 'append' | 'same-size' | 'rename' | 'link' | 'remove' | 'restore' | 'sidecar' | 'unsettled' | 'same-tick';
const OPS: Op[] = ['append', 'same-size', 'rename', 'link', 'remove', 'restore', 'sidecar', 'unsettled', 'same-tick'];
interface Step {
  slot: number;
  op: Op;
  variant: number;
}
const steps = (slots: number, variants: number): fc.Arbitrary<Step[]> =>
  fc.array(fc.record({ slot: fc.nat(slots - 1), op: fc.constantFrom(...OPS), variant: fc.nat(variants - 1) }), { minLength: 1, maxLength: 6 });

let dir: string;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ dir, dispose } = await makeTempDir('mam-facts-prop-'));
});
afterAll(() => dispose());

let run = 0;
const proc = new FakeProcessTable([{ pid: 1, argv: ['init'] }]);
// The remembering ports keep the real clock (the past dates have settled by it); the plain ones are fresh ports whose
// clock says nothing has settled, so they remember nothing.
const plainPorts = (): Ports => resolvePorts({ fs: new NodeFileSystem(), proc, clock: new FakeClock({ now: 0 }) });

function gone(p: string): void {
  if (lstatSync(p, { throwIfNoEntry: false }) !== undefined) rmSync(p, { force: true });
}

// Dates a path (not following a link) and its directory to `at` seconds, or to now for an unsettled step.
function date(p: string, at: number | null): void {
  const t = at ?? Date.now() / 1000;
  for (const x of [p, dirname(p)]) if (lstatSync(x, { throwIfNoEntry: false }) !== undefined) lutimesSync(x, t, t);
}

/** One file a property mutates: its variants' bytes (equal sizes where the contents allow) and where links point. */
interface Slot {
  path: string;
  variants: Buffer[];
  /** Extra bytes an append adds. */
  tail: Buffer;
}

// Applies one step to its slot; `root` holds link targets; `at` the step's second (null: leave it unsettled).
function apply(root: string, slot: Slot, s: Step, at: number | null): void {
  const bytes = slot.variants[s.variant % slot.variants.length] as Buffer;
  const regular = lstatSync(slot.path, { throwIfNoEntry: false })?.isFile() === true;
  mkdirSync(dirname(slot.path), { recursive: true });
  switch (s.op) {
    case 'append':
      if (regular) appendFileSync(slot.path, slot.tail);
      break;
    case 'same-tick': {
      const st = lstatSync(slot.path, { throwIfNoEntry: false });
      if (st === undefined || !st.isFile() || st.mtimeMs < Date.now() - 2000) return apply(root, slot, { ...s, op: 'unsettled' }, at);
      const other = slot.variants.find((v) => v.length === st.size && !v.equals(readFileSync(slot.path))) ?? bytes;
      writeFileSync(slot.path, other);
      lutimesSync(slot.path, st.atime, st.mtime);
      return;
    }
    case 'same-size':
    case 'unsettled':
      // In place: the same inode, new contents.
      if (regular) writeFileSync(slot.path, bytes);
      else gone(slot.path), writeFileSync(slot.path, bytes);
      break;
    case 'rename': {
      const tmp = `${slot.path}.tmp`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, slot.path);
      break;
    }
    case 'link': {
      const target = join(root, `target-${(run += 1)}`);
      writeFileSync(target, bytes);
      gone(slot.path);
      symlinkSync(target, slot.path);
      break;
    }
    case 'remove':
      gone(slot.path);
      break;
    case 'restore':
      gone(slot.path);
      writeFileSync(slot.path, bytes);
      break;
    case 'sidecar': {
      const j = `${slot.path}-journal`;
      if (existsSync(j)) gone(j);
      else writeFileSync(j, '');
      date(j, at);
      break;
    }
    default:
      throw new Error(s.op satisfies never);
  }
  date(slot.path, s.op === 'unsettled' ? null : at);
}

// The remembering adapter (called twice: the second call may answer from memory) against a fresh plain one, per query.
async function same(remembering: AgentAdapter, plain: AgentAdapter, queries: Array<{ id: string; workspace: string }>, ctx: { workspace: string; home: string }): Promise<void> {
  const want: boolean[] = [];
  for (const q of queries) want.push(await plain.verifyArtifact(q.id, { ...ctx, workspace: q.workspace }));
  expect(await remembering.verifyMany?.(queries, ctx)).toEqual(want);
  expect(await remembering.verifyMany?.(queries, ctx)).toEqual(want);
  for (const [i, q] of queries.entries()) expect(await remembering.verifyArtifact(q.id, { ...ctx, workspace: q.workspace })).toBe(want[i]);
}

// Two workspaces whose paths have the same length, so a record naming one or the other has the same size.
function workspaces(root: string): [string, string] {
  const a = join(root, 'ws-a');
  const b = join(root, 'ws-b');
  for (const d of [a, b]) mkdirSync(d, { recursive: true });
  return [a, b];
}

describe('remembered facts never change an answer', () => {
  it('claude: a transcript\'s first cwd', async () => {
    await fc.assert(
      fc.asyncProperty(steps(2, 3), async (plan) => {
        const root = join(dir, `c${(run += 1)}`);
        const [wsA, wsB] = workspaces(root);
        const home = join(root, 'home');
        const id = '6f1f8f52-3c7e-4d0b-9a55-0c2f4b7e9a10';
        const line = (key: string, cwd: string): Buffer => Buffer.from(`${JSON.stringify({ type: 'user', [key]: cwd })}\n`);
        // Variants: the first cwd is ws-a, ws-b, or none recorded (same size); an append adds a record naming ws-b.
        const variants = [line('cwd', wsA), line('cwd', wsB), line('cwz', wsA)];
        const slots: Slot[] = [wsA, wsB].map((w) => ({ path: join(home, '.claude', 'projects', claudeProjectKey(w), `${id}.jsonl`), variants, tail: line('cwd', wsB) }));
        for (const s of slots) apply(root, s, { slot: 0, op: 'restore', variant: 0 }, 1_000_000_000);
        const remembering = new ClaudeAdapter(resolvePorts({ fs: new NodeFileSystem(), proc }));
        const queries = [wsA, wsB].map((workspace) => ({ id, workspace }));
        const ctx = { workspace: wsA, home };
        let at = 1_000_000_000;
        await same(remembering, new ClaudeAdapter(plainPorts()), queries, ctx);
        for (const s of plan) {
          apply(root, slots[s.slot] as Slot, s, (at += 10));
          await same(remembering, new ClaudeAdapter(plainPorts()), queries, ctx);
        }
      }),
      { numRuns: 20, examples: [[[{ slot: 0, op: 'unsettled', variant: 0 }, { slot: 0, op: 'same-tick', variant: 1 }]]] },
    );
  });

  it('grok: a session\'s summary.json', async () => {
    await fc.assert(
      fc.asyncProperty(steps(2, 3), async (plan) => {
        const root = join(dir, `g${(run += 1)}`);
        const [wsA, wsB] = workspaces(root);
        const home = join(root, 'home');
        const id = '01a0355c-0000-7000-8000-000000000001';
        const summary = (cwd: string, hidden: string): Buffer => Buffer.from(`{"info":{"id":"${id}","cwd":${JSON.stringify(cwd)}},"hidden":${hidden}}`);
        // Variants: visible in ws-a, visible in ws-b, hidden (same size); an append makes it no JSON.
        const variants = [summary(wsA, 'false'), summary(wsB, 'false'), summary(wsA, 'true ')];
        const slots: Slot[] = [wsA, wsB].map((w) => ({ path: join(home, '.grok', 'sessions', encodeGrokCwd(w) as string, id, 'summary.json'), variants, tail: Buffer.from('}') }));
        for (const s of slots) apply(root, s, { slot: 0, op: 'restore', variant: 0 }, 1_000_000_000);
        const remembering = new GrokAdapter(resolvePorts({ fs: new NodeFileSystem(), proc }));
        const queries = [wsA, wsB].map((workspace) => ({ id, workspace }));
        const ctx = { workspace: wsA, home };
        let at = 1_000_000_000;
        await same(remembering, new GrokAdapter(plainPorts()), queries, ctx);
        for (const s of plan) {
          apply(root, slots[s.slot] as Slot, s, (at += 10));
          await same(remembering, new GrokAdapter(plainPorts()), queries, ctx);
        }
      }),
      { numRuns: 20, examples: [[[{ slot: 0, op: 'unsettled', variant: 0 }, { slot: 0, op: 'same-tick', variant: 1 }]]] },
    );
  });

  it('agy: a conversation database\'s record, the ACP .meta cwd and the cache', async () => {
    // The database variants are real databases recording ws-a, ws-b or no workspace, made once.
    const proto = join(dir, 'agy-proto');
    const [pa, pb] = workspaces(proto);
    const dbBytes = [[pa], [pb], []].map((w, i) => readFileSync(writeAgyRealDb(join(proto, `g${i}`), '2f6d3c1e-8a4b-4c2d-9e1f-3a5b7c9d1e2f', { workspaces: w })));
    await fc.assert(
      fc.asyncProperty(steps(3, 3), async (plan) => {
        const root = join(dir, `a${(run += 1)}`);
        // The same workspace paths the prototype databases record.
        const [wsA, wsB] = [pa, pb];
        const home = join(root, 'home');
        const gemini = join(home, '.gemini');
        const id = '2f6d3c1e-8a4b-4c2d-9e1f-3a5b7c9d1e2f';
        const db = writeAgyRealDb(gemini, id, { workspaces: [wsA] });
        const acp = writeAgyAcp(gemini, id, wsA);
        const json = (o: unknown): Buffer => Buffer.from(JSON.stringify(o));
        const slots: Slot[] = [
          { path: db, variants: dbBytes, tail: Buffer.alloc(512, 7) },
          { path: acp.meta, variants: [json({ cwd: wsA }), json({ cwd: wsB }), json({ cwx: wsA })], tail: Buffer.from(' ') },
          { path: join(gemini, 'antigravity-cli', 'cache', 'last_conversations.json'), variants: [json({ [wsA]: id }), json({ [wsB]: id }), json({ [wsA]: 'x'.repeat(id.length) })], tail: Buffer.from('}') },
        ];
        for (const s of slots) apply(root, s, { slot: 0, op: 'restore', variant: s === slots[0] ? 2 : 0 }, 1_000_000_000);
        const remembering = new AgyAdapter(resolvePorts({ fs: new NodeFileSystem(), proc }));
        const queries = [wsA, wsB].map((workspace) => ({ id, workspace }));
        const ctx = { workspace: wsA, home };
        let at = 1_000_000_000;
        await same(remembering, new AgyAdapter(plainPorts()), queries, ctx);
        for (const s of plan) {
          apply(root, slots[s.slot] as Slot, s, (at += 10));
          await same(remembering, new AgyAdapter(plainPorts()), queries, ctx);
        }
      }),
      { numRuns: 12, examples: [[[{ slot: 0, op: 'unsettled', variant: 0 }, { slot: 0, op: 'same-tick', variant: 1 }]], [[{ slot: 1, op: 'unsettled', variant: 0 }, { slot: 1, op: 'same-tick', variant: 1 }]]] },
    );
  });
});
