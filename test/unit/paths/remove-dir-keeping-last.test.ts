import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { removeDirKeepingLast } from '../../../src/paths/index.js';
import type { RemovalReport } from '../../../src/paths/index.js';
import { RecordingFileSystem } from '../../../src/testing/fs/index.js';
import { layout, listTree } from '../../helpers/fs-layout.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

// The removed/residual part of a report (each residual's reason is checked in its own tests).
const plain = (r: RemovalReport): Pick<RemovalReport, 'removed' | 'residual'> => ({ removed: r.removed, residual: r.residual });

describe('removeDirKeepingLast', () => {
  let t: string;
  let dispose: () => Promise<void>;
  let jobs: string;
  const j = (...parts: string[]): string => join(jobs, ...parts);

  beforeEach(async () => {
    ({ dir: t, dispose } = await makeTempDir('mam-keeplast-'));
    jobs = join(t, 'jobs');
    await layout(t, {
      'jobs/j1/a.log': 'a',
      'jobs/j1/state.json': '{}',
      'jobs/j1/z.out': 'z',
      'jobs/j1/sub/x': 'x',
      'jobs/j1/out-link': { link: join(t, 'outside') },
      'jobs/j2/only': 'o',
      'jobs/linked': { link: join(t, 'outside') },
      'outside/keep': 'k',
    });
  });
  afterEach(async () => {
    await dispose();
  });

  it('removes every other entry first, then the last one, then the dir', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem());
    const report = await removeDirKeepingLast(fs, jobs, j('j1'), 'state.json');
    expect(report.residual).toEqual([]);
    const tail = fs.mutations.slice(-2);
    expect(tail).toEqual([
      { op: 'unlink', path: j('j1', 'state.json') },
      { op: 'rmdir', path: j('j1') },
    ]);
    expect(report.removed.at(-1)).toBe(j('j1'));
    expect(await nfs.readdir(jobs)).not.toContain('j1');
    expect(await listTree(join(t, 'outside'))).toEqual(['keep']);
  });

  it('keeps the last entry and the dir when another entry stays', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.path === j('j1', 'z.out') ? 'EACCES' : undefined) });
    const report = await removeDirKeepingLast(fs, jobs, j('j1'), 'state.json');
    expect(report.residual).toEqual([j('j1', 'z.out'), j('j1')]);
    expect(await listTree(j('j1'))).toEqual(['state.json', 'z.out']);
    expect(fs.mutations.some((m) => m.path === j('j1', 'state.json'))).toBe(false);
  });

  it('keeps the dir when the last entry itself cannot go', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.path === j('j1', 'state.json') ? 'EIO' : undefined) });
    const report = await removeDirKeepingLast(fs, jobs, j('j1'), 'state.json');
    expect(report.residual).toEqual([j('j1', 'state.json'), j('j1')]);
    expect(await listTree(j('j1'))).toEqual(['state.json']);
  });

  it('removes a dir without the last entry too', async () => {
    const report = await removeDirKeepingLast(new NodeFileSystem(), jobs, j('j2'), 'state.json');
    expect(plain(report)).toEqual({ removed: [j('j2', 'only'), j('j2')], residual: [] });
  });

  it('touches nothing for a linked dir, a bad last name, the root, or a dir outside', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem());
    expect(plain(await removeDirKeepingLast(fs, jobs, j('linked'), 'state.json'))).toEqual({ removed: [], residual: [j('linked')] });
    expect(plain(await removeDirKeepingLast(fs, jobs, j('linked', 'x'), 'state.json'))).toEqual({ removed: [], residual: [j('linked', 'x')] });
    for (const bad of ['', '.', '..', '../state.json', 'a/b']) {
      expect(plain(await removeDirKeepingLast(fs, jobs, j('j1'), bad))).toEqual({ removed: [], residual: [j('j1')] });
    }
    expect(plain(await removeDirKeepingLast(fs, jobs, jobs, 'state.json'))).toEqual({ removed: [], residual: [jobs] });
    expect(plain(await removeDirKeepingLast(fs, jobs, join(t, 'outside'), 'keep'))).toEqual({ removed: [], residual: [join(t, 'outside')] });
    expect(fs.mutations).toEqual([]);
    expect(await listTree(join(t, 'outside'))).toEqual(['keep']);
  });

  it('reports nothing for a missing dir', async () => {
    expect(plain(await removeDirKeepingLast(new NodeFileSystem(), jobs, j('gone'), 'state.json'))).toEqual({ removed: [], residual: [] });
  });
});
