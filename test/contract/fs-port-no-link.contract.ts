import { spawnSync } from 'node:child_process';
import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { expectPortError, makeTempDir } from '../helpers/fs-temp.js';

/** The `noLink` reads and writes every FileSystemPort must have: never through a link, checked on the descriptor. */
export function fsPortNoLinkContract(name: string, makePort: () => FileSystemPort): void {
  describe(`FileSystemPort contract (noLink): ${name}`, () => {
    let fs: FileSystemPort;
    let dir: string;
    let dispose: () => Promise<void>;
    const p = (...parts: string[]): string => join(dir, ...parts);
    const bytesOf = (path: string): Promise<string> => nfs.readFile(path, 'utf8');

    beforeEach(async () => {
      fs = makePort();
      ({ dir, dispose } = await makeTempDir('mam-contract-nolink-'));
      await nfs.writeFile(p('target'), 'precious');
      await nfs.symlink(p('target'), p('abs-link'));
      await nfs.symlink('target', p('rel-link'));
      await nfs.link(p('target'), p('hard-link'));
      await nfs.writeFile(p('own'), 'mine');
      await nfs.mkdir(p('d'));
    });
    afterEach(async () => {
      await dispose();
    });

    it('readFile noLink reads a file of its own, and refuses a symbolic link (absolute or relative) and a hard link with Linked', async () => {
      expect(new TextDecoder().decode(await fs.readFile(p('own'), { noLink: true }))).toBe('mine');
      for (const name of ['abs-link', 'rel-link', 'hard-link']) {
        const err = await expectPortError(fs.readFile(p(name), { noLink: true }), 'Linked');
        expect(err.path).toBe(p(name));
      }
      // Without the option the port still reads through a link, as before.
      expect(new TextDecoder().decode(await fs.readFile(p('abs-link')))).toBe('precious');
    });

    it('readFile noLink: IsADirectory on a dir, NotRegularFile on a FIFO (no hang), NotFound when missing', async () => {
      await expectPortError(fs.readFile(p('d'), { noLink: true }), 'IsADirectory');
      expect(spawnSync('mkfifo', [p('fifo')]).status).toBe(0);
      await expectPortError(fs.readFile(p('fifo'), { noLink: true }), 'NotRegularFile');
      await expectPortError(fs.readFile(p('missing'), { noLink: true }), 'NotFound');
    }, 5000);

    it('writeFile noLink creates, truncates and appends a file of its own', async () => {
      await fs.writeFile(p('new'), 'first-long', { noLink: true });
      await fs.writeFile(p('new'), 'second', { noLink: true });
      expect(await bytesOf(p('new'))).toBe('second');
      await fs.writeFile(p('new'), '+more', { noLink: true, append: true });
      expect(await bytesOf(p('new'))).toBe('second+more');
      await fs.writeFile(p('excl'), 'x', { noLink: true, exclusive: true, sync: true, mode: 0o600 });
      expect((await nfs.stat(p('excl'))).mode & 0o777).toBe(0o600);
      await expectPortError(fs.writeFile(p('excl'), 'y', { noLink: true, exclusive: true }), 'AlreadyExists');
    });

    it('writeFile noLink never writes, truncates or appends through a symbolic or a hard link: Linked, the target byte-identical', async () => {
      for (const name of ['abs-link', 'rel-link', 'hard-link']) {
        await expectPortError(fs.writeFile(p(name), 'clobbered', { noLink: true }), 'Linked');
        await expectPortError(fs.writeFile(p(name), 'clobbered', { noLink: true, append: true }), 'Linked');
        expect(await bytesOf(p('target'))).toBe('precious');
      }
      // A dangling link is not followed to create its target either.
      await nfs.symlink(p('nowhere'), p('dangling'));
      await expectPortError(fs.writeFile(p('dangling'), 'x', { noLink: true }), 'Linked');
      await expect(nfs.lstat(p('nowhere'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('writeFile noLink: IsADirectory on a dir, NotRegularFile on a FIFO without blocking', async () => {
      await expectPortError(fs.writeFile(p('d'), 'x', { noLink: true }), 'IsADirectory');
      expect(spawnSync('mkfifo', [p('fifo')]).status).toBe(0);
      const started = Date.now();
      await expectPortError(fs.writeFile(p('fifo'), 'x', { noLink: true }), 'NotRegularFile');
      expect(Date.now() - started).toBeLessThan(2000);
    }, 5000);
  });
}
