import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { makeTempDir } from './fs-temp.js';

/** Where a generated link points: absolute into the real root, the root's link, the outside tree or the world dir, or relative text. */
export interface LinkTarget {
  base: 'root' | 'rootLink' | 'outside' | 'world' | 'relative';
  rel: string[];
}

/** A generated tree node. */
export type TreeNode =
  | { kind: 'file'; content: string }
  | { kind: 'dir'; children: Array<[string, TreeNode]> }
  | { kind: 'link'; target: LinkTarget };

/** A whole scenario: the tree under the root, the tree outside it, how the root is named, what to remove, which mutations fail. */
export interface WorldSpec {
  inside: Array<[string, TreeNode]>;
  outside: Array<[string, TreeNode]>;
  rootViaLink: boolean;
  calls: Array<{ op: 'removeConfined' | 'removeDirKeepingLast'; base: CandidateBase; segments: string[]; lastName: string }>;
  /** 1-based mutation numbers that fail with an injected fault. */
  faults: number[];
}

/** What a candidate path is spelled from. */
export type CandidateBase = 'root' | 'otherRootName' | 'outside' | 'world';

/** A scenario laid out on disk. */
export interface World {
  /** The canonical temp dir holding everything. */
  dir: string;
  /** The real root dir (canonical). */
  realRoot: string;
  /** The root as the code under test is given it (the real dir, or a link to it). */
  root: string;
  dispose: () => Promise<void>;
}

/** Entry names; few of them, so candidates and links keep hitting existing entries (and links become intermediate components). */
export const NAMES = ['a', 'b', 'c', 'd'] as const;

const nameArb = fc.constantFrom(...NAMES);
// Mostly names, so candidates reach into the tree; sometimes `..` / `.` to try escaping it.
const segmentArb = fc.oneof({ weight: 8, arbitrary: nameArb }, { weight: 1, arbitrary: fc.constantFrom('..', '.') });
const linkArb: fc.Arbitrary<TreeNode> = fc.record({
  kind: fc.constant('link' as const),
  target: fc.record({
    base: fc.constantFrom('root', 'rootLink', 'outside', 'world', 'relative'),
    rel: fc.array(segmentArb, { maxLength: 3 }),
  }),
});
const fileArb: fc.Arbitrary<TreeNode> = fc.record({ kind: fc.constant('file' as const), content: fc.string({ maxLength: 12 }) });

function childrenArb(node: fc.Arbitrary<TreeNode>, minLength = 0): fc.Arbitrary<Array<[string, TreeNode]>> {
  return fc.uniqueArray(fc.tuple(nameArb, node), { selector: ([name]) => name, minLength, maxLength: NAMES.length });
}

const { node: nodeArb } = fc.letrec<{ node: TreeNode; dir: TreeNode }>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'tree' },
    { weight: 2, arbitrary: fileArb },
    { weight: 2, arbitrary: linkArb },
    { weight: 3, arbitrary: tie('dir') },
  ),
  dir: fc.record({ kind: fc.constant('dir' as const), children: childrenArb(tie('node')) }),
}));

/** Random worlds: trees with files, dirs and links (inside, outside, dangling, relative with `..`), and `..`-laden candidates. */
export const worldArb: fc.Arbitrary<WorldSpec> = fc.record({
  inside: childrenArb(nodeArb, 2),
  outside: childrenArb(nodeArb),
  rootViaLink: fc.boolean(),
  calls: fc.array(
    fc.record({
      op: fc.constantFrom('removeConfined' as const, 'removeDirKeepingLast' as const),
      base: fc.oneof(
        { weight: 6, arbitrary: fc.constant<CandidateBase>('root') },
        { weight: 1, arbitrary: fc.constantFrom<CandidateBase>('otherRootName', 'outside', 'world') },
      ),
      // Empty now and then: the root itself must be refused.
      segments: fc.oneof({ weight: 9, arbitrary: fc.array(segmentArb, { minLength: 1, maxLength: 4 }) }, { weight: 1, arbitrary: fc.constant<string[]>([]) }),
      lastName: nameArb,
    }),
    { minLength: 1, maxLength: 4 },
  ),
  faults: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
});

function linkText(world: string, t: LinkTarget): string {
  switch (t.base) {
    case 'root':
      return join(world, 'realroot', ...t.rel);
    case 'rootLink':
      return join(world, 'rootlink', ...t.rel);
    case 'outside':
      return join(world, 'outside', ...t.rel);
    case 'world':
      return join(world, ...t.rel);
    case 'relative':
      return t.rel.length === 0 ? '.' : t.rel.join('/');
  }
}

async function lay(world: string, at: string, children: Array<[string, TreeNode]>): Promise<void> {
  await nfs.mkdir(at, { recursive: true });
  for (const [name, node] of children) {
    const path = join(at, name);
    if (node.kind === 'file') await nfs.writeFile(path, node.content);
    else if (node.kind === 'link') await nfs.symlink(linkText(world, node.target), path);
    else await lay(world, path, node.children);
  }
}

/** Lays a scenario out in a fresh temp dir: `realroot/`, `outside/`, and `rootlink → realroot`. */
export async function buildWorld(spec: WorldSpec): Promise<World> {
  const { dir, dispose } = await makeTempDir('mam-world-');
  const realRoot = join(dir, 'realroot');
  await lay(dir, realRoot, spec.inside);
  await lay(dir, join(dir, 'outside'), spec.outside);
  await nfs.symlink(realRoot, join(dir, 'rootlink'));
  return { dir, realRoot, root: spec.rootViaLink ? join(dir, 'rootlink') : realRoot, dispose };
}

/** The candidate path a call names, spelled with raw `/` joins so `..` and `.` survive. */
export function candidatePath(world: World, call: WorldSpec['calls'][number]): string {
  const other = world.root === world.realRoot ? join(world.dir, 'rootlink') : world.realRoot;
  const base = { root: world.root, otherRootName: other, outside: join(world.dir, 'outside'), world: world.dir }[call.base];
  return call.segments.length === 0 ? base : `${base}/${call.segments.join('/')}`;
}

/** Everything in the world except the real root's contents, as `path → dir | file:<bytes> | link:<target>`, never following a link. */
export async function snapshotOutside(world: World): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(abs: string, rel: string): Promise<void> {
    for (const e of await nfs.readdir(abs, { withFileTypes: true })) {
      const childAbs = join(abs, e.name);
      const childRel = `${rel}/${e.name}`;
      if (childAbs === world.realRoot) {
        out.set(childRel, 'dir');
        continue;
      }
      if (e.isSymbolicLink()) out.set(childRel, `link:${await nfs.readlink(childAbs)}`);
      else if (e.isDirectory()) {
        out.set(childRel, 'dir');
        await walk(childAbs, childRel);
      } else out.set(childRel, `file:${(await nfs.readFile(childAbs)).toString('base64')}`);
    }
  }
  await walk(world.dir, '');
  return out;
}
