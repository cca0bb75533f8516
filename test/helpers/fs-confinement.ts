import { lstatSync, realpathSync } from 'node:fs';
import * as nfs from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { expect } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { isInside, removeConfined, removeDirKeepingLast, type RemovalReport } from '../../src/paths/index.js';
import { RecordingFileSystem, type RecordedMutation } from '../../src/testing/fs/index.js';
import { buildWorld, candidatePath, snapshotOutside, type World, type WorldSpec } from './fs-trees.js';

/** Why a mutation, seen just before it ran, would have left the root; null when it is confined. */
function violation(world: World, m: Readonly<RecordedMutation>): string | null {
  if (m.op !== 'unlink' && m.op !== 'rmdir') return `unexpected ${m.op}`;
  const p = normalize(m.path);
  if (p !== m.path) return `unnormalized path ${m.path}`;
  if (p === world.root || !isInside(world.root, p)) return `not below the root: ${p}`;
  // Every component between the root and the parent must be a real directory at the instant of the mutation.
  let cur = world.root;
  for (const part of p.slice(world.root.length + 1).split(sep).slice(0, -1)) {
    cur = join(cur, part);
    if (!lstatSync(cur).isDirectory()) return `through a non-directory component ${cur}`;
  }
  const realParent = realpathSync(dirname(p));
  if (!isInside(world.realRoot, realParent)) return `parent resolves outside: ${realParent}`;
  return null;
}

async function absent(path: string): Promise<boolean> {
  try {
    await nfs.lstat(path);
    return false;
  } catch (err) {
    return ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');
  }
}

/** The confinement property: whatever the tree and candidates, no mutation leaves the resolved root and everything outside is byte-identical. */
export async function checkConfinement(spec: WorldSpec): Promise<void> {
  const world = await buildWorld(spec);
  try {
    const before = await snapshotOutside(world);
    const violations: string[] = [];
    const faults = new Set(spec.faults);
    const fs = new RecordingFileSystem(new NodeFileSystem(), {
      failAt: (m, n) => {
        const why = violation(world, m);
        if (why !== null) violations.push(why);
        return faults.has(n) ? 'EACCES' : undefined;
      },
    });
    for (const call of spec.calls) {
      const candidate = candidatePath(world, call);
      const report: RemovalReport =
        call.op === 'removeConfined'
          ? await removeConfined(fs, world.root, candidate)
          : await removeDirKeepingLast(fs, world.root, candidate, call.lastName);
      for (const p of report.removed) expect(await absent(p), `removed but present: ${p}`).toBe(true);
      if (report.residual.length === 0) expect(await absent(normalize(candidate)), `no residual but present: ${candidate}`).toBe(true);
    }
    expect(violations).toEqual([]);
    expect((await nfs.lstat(world.realRoot)).isDirectory()).toBe(true);
    expect(await snapshotOutside(world)).toEqual(before);
  } finally {
    await world.dispose();
  }
}
