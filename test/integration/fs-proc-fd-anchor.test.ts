// The claim fd-anchored removal rests on, checked on raw node:fs before the library relies on it: a directory opened by
// descriptor, then renamed and swapped for a link, is still the one `/proc/self/fd/<fd>/<name>` reaches, and
// O_NOFOLLOW | O_DIRECTORY refuses a link as the last component. Linux only (where the port uses it).
import { constants as C, existsSync } from 'node:fs';
import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { makeTempDir } from '../helpers/fs-temp.js';

const linux = process.platform === 'linux' && existsSync('/proc/self/fd');
const DIR = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;

describe.skipIf(!linux)('/proc/self/fd anchors calls to the directory opened (Linux)', () => {
  let t: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: t, dispose } = await makeTempDir('mam-procfd-'));
    await nfs.mkdir(join(t, 'a', 'b'), { recursive: true });
    await nfs.mkdir(join(t, 'victim'));
    await nfs.writeFile(join(t, 'a', 'b', 'x'), 'mine');
    await nfs.writeFile(join(t, 'victim', 'x'), 'victim');
  });
  afterEach(async () => {
    await dispose();
  });

  it('a dir opened by fd, then renamed and swapped for a symlink, is still the one /proc/self/fd/<fd>/x reaches', async () => {
    const h = await nfs.open(join(t, 'a', 'b'), DIR);
    try {
      await nfs.rename(join(t, 'a', 'b'), join(t, 'a', 'b-moved'));
      await nfs.symlink(join(t, 'victim'), join(t, 'a', 'b'));
      const at = `/proc/self/fd/${h.fd}`;
      expect(await nfs.readdir(at)).toEqual(['x']);
      expect(await nfs.readFile(join(at, 'x'), 'utf8')).toBe('mine');
      await nfs.unlink(join(at, 'x'));
      await nfs.mkdir(join(at, 'sub'));
      await nfs.rmdir(join(at, 'sub'));
      expect(await nfs.readdir(join(t, 'a', 'b-moved'))).toEqual([]);
      expect(await nfs.readFile(join(t, 'victim', 'x'), 'utf8')).toBe('victim');
      const [viaFd, viaPath] = await Promise.all([h.stat(), nfs.stat(at)]);
      expect([viaPath.dev, viaPath.ino]).toEqual([viaFd.dev, viaFd.ino]);
    } finally {
      await h.close();
    }
  });

  it('O_NOFOLLOW | O_DIRECTORY refuses a last-component link, by path and relative to an open dir', async () => {
    await nfs.symlink(join(t, 'victim'), join(t, 'a', 'link'));
    await expect(nfs.open(join(t, 'a', 'link'), DIR)).rejects.toMatchObject({ code: expect.stringMatching(/^(ENOTDIR|ELOOP)$/) });
    const h = await nfs.open(join(t, 'a'), DIR);
    try {
      await expect(nfs.open(`/proc/self/fd/${h.fd}/link`, DIR)).rejects.toMatchObject({ code: expect.stringMatching(/^(ENOTDIR|ELOOP)$/) });
      expect((await nfs.lstat(`/proc/self/fd/${h.fd}/link`)).isSymbolicLink()).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('NodeFileSystem uses it: its handles are anchored here', async () => {
    const h = await new NodeFileSystem().openDir(t);
    expect(h.anchored).toBe(true);
    await h.close();
    const fallback = await new NodeFileSystem({ procFd: false }).openDir(t);
    expect(fallback.anchored).toBe(false);
    await fallback.close();
  });
});
