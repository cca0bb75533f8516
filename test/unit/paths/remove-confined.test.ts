import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortError } from '../../../src/errors.js';
import type { DirHandle } from '../../../src/ports/fs.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { removeConfined } from '../../../src/paths/index.js';
import type { RemovalReport } from '../../../src/paths/index.js';
import { RecordingFileSystem } from '../../../src/testing/fs/index.js';
import { layout, listTree } from '../../helpers/fs-layout.js';
import { withOverrides } from '../../helpers/fs-overrides.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

// The removed/residual part of a report (each residual's reason is checked in its own tests).
const plain = (r: RemovalReport): Pick<RemovalReport, 'removed' | 'residual'> => ({ removed: r.removed, residual: r.residual });

describe('removeConfined', () => {
  let t: string;
  let dispose: () => Promise<void>;
  let root: string;
  let fs: RecordingFileSystem;
  const r = (...parts: string[]): string => join(root, ...parts);

  beforeEach(async () => {
    ({ dir: t, dispose } = await makeTempDir('mam-remove-'));
    root = join(t, 'root');
    fs = new RecordingFileSystem(new NodeFileSystem());
    await layout(t, {
      'root/file': 'f',
      'root/keep/k': 'k',
      'root/tree/a/b/deep': 'd',
      'root/tree/a/sib': 's',
      'root/tree/top': 't',
      'root/tree/to-out-dir': { link: join(t, 'outside') },
      'root/tree/a/to-out-file': { link: join(t, 'outside', 'secret') },
      'root/tree/to-keep': { link: join(t, 'root', 'keep') },
      'root/tree/dangling': { link: join(t, 'nowhere') },
      'root/leaf-file-link': { link: join(t, 'outside', 'secret') },
      'root/leaf-dir-link': { link: join(t, 'outside') },
      'root/via': { link: join(t, 'root', 'keep') },
      'outside/secret': 's',
      'outside/sub/x': 'x',
    });
  });
  afterEach(async () => {
    await dispose();
  });

  it('removes a file', async () => {
    expect(plain(await removeConfined(fs, root, r('file')))).toEqual({ removed: [r('file')], residual: [] });
    await expect(nfs.lstat(r('file'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes a leaf link as the link alone, to a file or to a dir', async () => {
    const before = await listTree(join(t, 'outside'));
    expect(plain(await removeConfined(fs, root, r('leaf-file-link')))).toEqual({ removed: [r('leaf-file-link')], residual: [] });
    expect(plain(await removeConfined(fs, root, r('leaf-dir-link')))).toEqual({ removed: [r('leaf-dir-link')], residual: [] });
    expect(await listTree(join(t, 'outside'))).toEqual(before);
    expect(fs.mutations.map((m) => m.op)).toEqual(['unlink', 'unlink']);
  });

  it('removes a tree depth-first, unlinking the links inside as links and never following them', async () => {
    const outsideBefore = await listTree(join(t, 'outside'));
    const report = await removeConfined(fs, root, r('tree'));
    expect(report.residual).toEqual([]);
    expect([...report.removed].sort()).toEqual(
      ['tree', 'tree/a', 'tree/a/b', 'tree/a/b/deep', 'tree/a/sib', 'tree/a/to-out-file', 'tree/top', 'tree/to-out-dir', 'tree/to-keep', 'tree/dangling']
        .map((p) => r(p))
        .sort(),
    );
    // Depth-first: every path is removed before its parent.
    for (const [i, p] of report.removed.entries()) {
      const parentAt = report.removed.indexOf(join(p, '..'));
      if (parentAt !== -1) expect(parentAt).toBeGreaterThan(i);
    }
    expect(await listTree(join(t, 'outside'))).toEqual(outsideBefore);
    expect(await listTree(r('keep'))).toEqual(['k']);
    expect(fs.mutations.every((m) => m.path.startsWith(`${r('tree')}/`) || m.path === r('tree'))).toBe(true);
  });

  it('does not touch a candidate behind a linked dir, and reports it as residual', async () => {
    expect(plain(await removeConfined(fs, root, r('via', 'k')))).toEqual({ removed: [], residual: [r('via', 'k')] });
    expect(plain(await removeConfined(fs, root, r('leaf-dir-link', 'secret')))).toEqual({ removed: [], residual: [r('leaf-dir-link', 'secret')] });
    expect(fs.mutations).toEqual([]);
    expect(await listTree(r('keep'))).toEqual(['k']);
  });

  it('refuses the root itself and anything not below it, touching nothing', async () => {
    for (const c of [root, `${root}/`, r('tree', '..'), join(t, 'outside', 'secret'), `${root}/../outside/secret`, 'root/file']) {
      expect(plain(await removeConfined(fs, root, c))).toEqual({ removed: [], residual: [c] });
    }
    expect(fs.mutations).toEqual([]);
  });

  it('reports nothing for a missing candidate', async () => {
    expect(plain(await removeConfined(fs, root, r('nope')))).toEqual({ removed: [], residual: [] });
    expect(plain(await removeConfined(fs, root, r('file', 'below-a-file')))).toEqual({ removed: [], residual: [] });
  });

  it('keeps going after a failed entry: the entry and its ancestors are residual, the rest is removed', async () => {
    const faulty = new RecordingFileSystem(new NodeFileSystem(), {
      failAt: (m) => (m.path === r('tree', 'a', 'b', 'deep') ? 'EBUSY' : undefined),
    });
    const report = await removeConfined(faulty, root, r('tree'));
    expect([...report.residual].sort()).toEqual([r('tree'), r('tree', 'a'), r('tree', 'a', 'b'), r('tree', 'a', 'b', 'deep')].sort());
    expect(report.removed).toContain(r('tree', 'top'));
    expect(report.removed).toContain(r('tree', 'a', 'sib'));
    expect(await listTree(r('tree'))).toEqual(['a/', 'a/b/', 'a/b/deep']);
  });

  it('never throws: an unreadable dir or a failing check becomes residual', async () => {
    // The removal lists through directory handles now: the handle's readdir is the one that fails.
    const real = new NodeFileSystem();
    const unreadable = withOverrides(real, {
      openDir: async (p: string) => {
        const h = await real.openDir(p);
        const deny = async (): Promise<never> => {
          throw new PortError('PermissionDenied', 'fs.readdir', 'EACCES', { path: p, errno: 'EACCES' });
        };
        const wrap = (d: DirHandle): DirHandle => ({
          path: d.path,
          anchored: d.anchored,
          stat: () => d.stat(),
          readdir: deny,
          lstat: (n) => d.lstat(n),
          openDir: async (n) => wrap(await d.openDir(n)),
          unlink: (n) => d.unlink(n),
          rmdir: (n) => d.rmdir(n),
          close: () => d.close(),
        });
        return wrap(h);
      },
    });
    expect(plain(await removeConfined(unreadable, root, r('tree')))).toEqual({ removed: [], residual: [r('tree')] });
    const broken = withOverrides(new NodeFileSystem(), {
      realpath: async () => {
        throw new Error('boom');
      },
    });
    expect(plain(await removeConfined(broken, root, r('file')))).toEqual({ removed: [], residual: [r('file')] });
    expect(await nfs.readFile(r('file'), 'utf8')).toBe('f');
  });
});
