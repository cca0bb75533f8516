// Property: a Grok adapter that remembers which bucket cwds resolve to themselves answers discover and verifyMany exactly
// as one that remembers nothing, on a tree whose dirs turn into links (to the workspace, elsewhere) or vanish between
// calls, at any depth. Every dir's mtime is set to a new past second after each change (what the settle rule stands
// for: no change within the tick of the previous look), so the remembering adapter does remember.
import fc from 'fast-check';
import { existsSync, lstatSync, lutimesSync, mkdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../../src/agents/grok/grok-encode.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { resolvePorts } from '../../../../src/node/node-ports.js';
import { FakeClock } from '../../../../src/testing/fs/fake-clock.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';

type Node = 'dir' | 'link-ws' | 'link-other' | 'missing';
const TOP = ['p', 'q'];
const LEAF = ['1', '2', '3'];

let dir: string;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-mem-prop-'));
});
afterAll(() => dispose());

const gone = (p: string): void => {
  if (existsSync(p) || lstatSync(p, { throwIfNoEntry: false }) !== undefined) rmSync(p, { recursive: true, force: true });
};

const make = (p: string, s: Node, ws: string, root: string): void => {
  if (s === 'dir') mkdirSync(p);
  else if (s === 'link-ws') symlinkSync(ws, p);
  else if (s === 'link-other') symlinkSync(join(root, 'other'), p);
};

// t/<top>/<leaf>: a top that is a link points into alt/ (where 1 is a link to the workspace, 2 a dir, and 3 changes too).
// Only what differs from the previous step is changed (an unchanged link keeps its inode).
function apply(root: string, ws: string, s: State, prev: State | null): void {
  if (prev?.alt3 !== s.alt3) {
    gone(join(root, 'alt', '3'));
    make(join(root, 'alt', '3'), s.alt3, ws, root);
  }
  TOP.forEach((t, i) => {
    const p = join(root, 't', t);
    const top = s.tops[i] as Node;
    const leavesOf = (x: State | null): string => (x === null ? '' : x.leaves.slice(i * LEAF.length, (i + 1) * LEAF.length).join());
    if (prev !== null && prev.tops[i] === top && (top !== 'dir' || leavesOf(prev) === leavesOf(s))) return;
    if (prev?.tops[i] !== top || top !== 'dir') {
      gone(p);
      if (top === 'link-ws') symlinkSync(join(root, 'alt'), p);
      else make(p, top, ws, root);
    }
    if (top !== 'dir') return;
    LEAF.forEach((l, j) => {
      const q = join(p, l);
      const leaf = s.leaves[i * LEAF.length + j] as Node;
      if (prev !== null && prev.tops[i] === 'dir' && prev.leaves[i * LEAF.length + j] === leaf) return;
      gone(q);
      make(q, leaf, ws, root);
    });
  });
}

// What this step changed (an mtime of the last minute) is dated to the step's own past second; the rest keeps its date.
function touchAll(p: string, at: number): void {
  const st = lstatSync(p, { throwIfNoEntry: false });
  if (st === undefined) return;
  if (st.isDirectory()) for (const n of ['t', ...TOP, ...LEAF, 'alt', 'other']) touchAll(join(p, n), at);
  if (st.mtimeMs > Date.now() - 60_000) lutimesSync(p, at, at);
}

const node = fc.constantFrom<Node>('dir', 'link-ws', 'link-other', 'missing');
interface State {
  tops: Node[];
  leaves: Node[];
  alt3: Node;
}
const state: fc.Arbitrary<State> = fc.record({ tops: fc.array(node, { minLength: 2, maxLength: 2 }), leaves: fc.array(node, { minLength: 6, maxLength: 6 }), alt3: node });

describe('grok: remembered bucket cwds never change an answer', () => {
  let run = 0;
  it('discover and verifyMany equal those of an adapter that remembers nothing, across changes of the tree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(state, { minLength: 2, maxLength: 5 }), async (steps) => {
        const root = join(dir, `r${(run += 1)}`);
        const ws = join(root, 'ws');
        const home = join(root, 'home');
        const sessions = join(home, '.grok', 'sessions');
        for (const d of [ws, join(root, 't'), join(root, 'alt', '2'), join(root, 'other'), sessions]) mkdirSync(d, { recursive: true });
        symlinkSync(ws, join(root, 'alt', '1'));
        // A bucket (and one session) for every top and leaf path, and for the workspace itself.
        const cwds = [ws, join(root, 'alt', '3'), ...TOP.flatMap((t) => [join(root, 't', t), ...LEAF.map((l) => join(root, 't', t, l))])];
        const ids = cwds.map((cwd, i) => {
          const id = `01a0355c-0000-7000-8000-${String(i + 1).padStart(12, '0')}`;
          const b = join(sessions, encodeGrokCwd(cwd) as string, id);
          mkdirSync(b, { recursive: true });
          writeFileSync(join(b, 'summary.json'), JSON.stringify({ info: { id, cwd }, updated_at: new Date(Date.UTC(2026, 7, 1, 0, i)).toISOString() }));
          return id;
        });
        const proc = new FakeProcessTable([{ pid: 1, argv: ['init'] }]);
        const remembering = new GrokAdapter(resolvePorts({ fs: new NodeFileSystem(), proc }));
        const ctx = { workspace: ws, home };
        const queries = [...ids.map((id) => ({ id })), ...ids.map((id) => ({ id, workspace: join(root, 'other') }))];
        let at = 1_000_000_000;
        let prev: State | null = null;
        for (const s of steps) {
          apply(root, ws, s, prev);
          prev = s;
          touchAll(root, (at += 10));
          // A fresh adapter on its own port, whose clock says nothing has settled: it remembers nothing.
          const plain = new GrokAdapter(resolvePorts({ fs: new NodeFileSystem(), proc, clock: new FakeClock({ now: 0 }) }));
          const want = await plain.discover(ctx);
          expect(await remembering.discover(ctx)).toEqual(want);
          expect(await remembering.discover(ctx)).toEqual(want);
          const wantMany: boolean[] = [];
          for (const q of queries) wantMany.push(await plain.verifyArtifact(q.id, { ...ctx, workspace: 'workspace' in q ? (q.workspace as string) : ws }));
          expect(await remembering.verifyMany(queries, ctx)).toEqual(wantMany);
        }
      }),
      {
        numRuns: 25,
        // A cwd missing behind a linked parent, then created there as a link to the workspace (the parent link unchanged).
        examples: [[[{ tops: ['link-ws', 'dir'], leaves: ['dir', 'dir', 'dir', 'dir', 'dir', 'dir'], alt3: 'missing' }, { tops: ['link-ws', 'dir'], leaves: ['dir', 'dir', 'dir', 'dir', 'dir', 'dir'], alt3: 'link-ws' }]]],
      },
    );
  });
});
