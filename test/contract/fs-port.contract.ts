import { spawnSync } from 'node:child_process';
import * as nfs from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { expectPortError, makeTempDir } from '../helpers/fs-temp.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The semantics every FileSystemPort must have, run on real temp dirs. */
export function fsPortContract(name: string, makePort: () => FileSystemPort): void {
  describe(`FileSystemPort contract: ${name}`, () => {
    let fs: FileSystemPort;
    let dir: string;
    let dispose: () => Promise<void>;
    const p = (...parts: string[]): string => join(dir, ...parts);

    beforeEach(async () => {
      fs = makePort();
      ({ dir, dispose } = await makeTempDir('mam-contract-'));
      await nfs.mkdir(p('d'));
      await nfs.writeFile(p('d', 'f.txt'), 'hello');
      await nfs.writeFile(p('f.txt'), 'top');
      await nfs.symlink(p('d'), p('link-dir'));
      await nfs.symlink('f.txt', p('link-file'));
      await nfs.symlink(p('nowhere'), p('dangling'));
    });
    afterEach(async () => {
      await dispose();
    });

    describe('readdir', () => {
      it('lists names with kinds, a link as symlink, never . or ..', async () => {
        const entries = await fs.readdir(dir);
        const sorted = [...entries].sort((a, b) => a.name.localeCompare(b.name));
        expect(sorted).toEqual([
          { name: 'd', kind: 'dir' },
          { name: 'dangling', kind: 'symlink' },
          { name: 'f.txt', kind: 'file' },
          { name: 'link-dir', kind: 'symlink' },
          { name: 'link-file', kind: 'symlink' },
        ]);
      });
      it('NotFound on a missing dir, NotADirectory on a file', async () => {
        const err = await expectPortError(fs.readdir(p('missing')), 'NotFound');
        expect(err.path).toBe(p('missing'));
        expect(err.op).toBe('fs.readdir');
        await expectPortError(fs.readdir(p('f.txt')), 'NotADirectory');
      });
    });

    describe('stat / lstat', () => {
      it('stat follows links, lstat reports the link itself', async () => {
        expect((await fs.stat(p('link-dir'))).kind).toBe('dir');
        expect((await fs.lstat(p('link-dir'))).kind).toBe('symlink');
        const viaLink = await fs.stat(p('link-file'));
        expect(viaLink.kind).toBe('file');
        expect(viaLink.size).toBe(3);
        expect((await fs.lstat(p('link-file'))).kind).toBe('symlink');
      });
      it('reports size, mtime, ctime, mode, uid, dev and ino', async () => {
        const real = await nfs.stat(p('d', 'f.txt'));
        const s = await fs.stat(p('d', 'f.txt'));
        expect(s).toEqual({ kind: 'file', size: 5, mtimeMs: real.mtimeMs, ctimeMs: real.ctimeMs, mode: real.mode, uid: real.uid, dev: real.dev, ino: real.ino, nlink: real.nlink });
      });
      it('the ctime moves when an mtime is set back (a stamp with it sees a restored mtime)', async () => {
        const t = Math.floor(Date.now() / 1000) - 60;
        await nfs.utimes(p('d', 'f.txt'), t, t);
        const before = await fs.lstat(p('d', 'f.txt'));
        await new Promise((r) => setTimeout(r, 20));
        await nfs.writeFile(p('d', 'f.txt'), 'HELLO');
        await nfs.utimes(p('d', 'f.txt'), t, t);
        const after = await fs.lstat(p('d', 'f.txt'));
        expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
        expect(after.ctimeMs).toBeGreaterThan(before.ctimeMs ?? Number.POSITIVE_INFINITY);
      });
      it('NotFound on a missing path and on stat of a dangling link (lstat still sees the link)', async () => {
        await expectPortError(fs.stat(p('missing')), 'NotFound');
        await expectPortError(fs.lstat(p('missing')), 'NotFound');
        await expectPortError(fs.stat(p('dangling')), 'NotFound');
        expect((await fs.lstat(p('dangling'))).kind).toBe('symlink');
      });
      it('InvalidArgument on a path with a NUL byte', async () => {
        await expectPortError(fs.stat(p('a\0b')), 'InvalidArgument');
      });
    });

    describe('realpath / readlink', () => {
      it('realpath resolves through a chain of links', async () => {
        await nfs.symlink(p('link-dir'), p('link-link'));
        expect(await fs.realpath(p('link-link', 'f.txt'))).toBe(p('d', 'f.txt'));
        expect(await fs.realpath(p('link-file'))).toBe(p('f.txt'));
        expect(await fs.realpath(dir)).toBe(dir);
      });
      it('realpath: NotFound on a missing path or a dangling link', async () => {
        await expectPortError(fs.realpath(p('missing')), 'NotFound');
        await expectPortError(fs.realpath(p('dangling')), 'NotFound');
      });
      it('readlink gives the target text as written; InvalidArgument on a non-link', async () => {
        expect(await fs.readlink(p('link-file'))).toBe('f.txt');
        expect(await fs.readlink(p('dangling'))).toBe(p('nowhere'));
        await expectPortError(fs.readlink(p('f.txt')), 'InvalidArgument');
        await expectPortError(fs.readlink(p('missing')), 'NotFound');
      });
    });

    describe('readFile / readText / readHead', () => {
      it('readFile returns a Uint8Array of the bytes; readText decodes UTF-8', async () => {
        await nfs.writeFile(p('u.txt'), 'héllo ✓');
        const data = await fs.readFile(p('u.txt'));
        expect(data).toBeInstanceOf(Uint8Array);
        expect(Array.from(data)).toEqual(Array.from(bytes('héllo ✓')));
        expect(await fs.readText(p('u.txt'))).toBe('héllo ✓');
      });
      it('NotFound on a missing file, IsADirectory on a dir', async () => {
        await expectPortError(fs.readFile(p('missing')), 'NotFound');
        await expectPortError(fs.readText(p('missing')), 'NotFound');
        await expectPortError(fs.readFile(p('d')), 'IsADirectory');
      });
      it('readHead never returns more than asked, on a 1 MB file', async () => {
        const big = new Uint8Array(1024 * 1024);
        for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
        await nfs.writeFile(p('big.bin'), big);
        for (const n of [0, 1, 10, 65_535, 65_536, 70_000, 200_000]) {
          const head = await fs.readHead(p('big.bin'), n);
          expect(head.length).toBe(n);
          expect(Buffer.from(head).equals(Buffer.from(big.subarray(0, n)))).toBe(true);
        }
      });
      it('readHead returns the whole file when it is shorter than asked', async () => {
        const head = await fs.readHead(p('d', 'f.txt'), 1000);
        expect(new TextDecoder().decode(head)).toBe('hello');
      });
      it('readHead: NotFound on a missing file, InvalidArgument on a negative size', async () => {
        await expectPortError(fs.readHead(p('missing'), 10), 'NotFound');
        await expectPortError(fs.readHead(p('f.txt'), -1), 'InvalidArgument');
      });
    });

    describe('writeFile', () => {
      it('creates, truncates on overwrite, appends', async () => {
        await fs.writeFile(p('w.txt'), 'first-long');
        await fs.writeFile(p('w.txt'), bytes('second'));
        expect(await nfs.readFile(p('w.txt'), 'utf8')).toBe('second');
        await fs.writeFile(p('w.txt'), '+more', { append: true });
        expect(await nfs.readFile(p('w.txt'), 'utf8')).toBe('second+more');
      });
      it('exclusive: AlreadyExists on an existing file, which stays intact', async () => {
        await expectPortError(fs.writeFile(p('f.txt'), 'clobber', { exclusive: true }), 'AlreadyExists');
        expect(await nfs.readFile(p('f.txt'), 'utf8')).toBe('top');
        await fs.writeFile(p('new.txt'), 'x', { exclusive: true, sync: true });
        expect(await nfs.readFile(p('new.txt'), 'utf8')).toBe('x');
      });
      it('exclusive does not follow a dangling link to create its target', async () => {
        await expectPortError(fs.writeFile(p('dangling'), 'x', { exclusive: true }), 'AlreadyExists');
        await expect(nfs.lstat(p('nowhere'))).rejects.toMatchObject({ code: 'ENOENT' });
      });
      it('applies mode to a new file', async () => {
        await fs.writeFile(p('m.txt'), 'x', { mode: 0o600 });
        expect((await nfs.stat(p('m.txt'))).mode & 0o777).toBe(0o600);
      });
      it('NotFound when the directory is missing, IsADirectory on a dir', async () => {
        const err = await expectPortError(fs.writeFile(p('missing', 'x'), 'x'), 'NotFound');
        expect(err.op).toBe('fs.writeFile');
        await expectPortError(fs.writeFile(p('d'), 'x'), 'IsADirectory');
      });
    });

    describe('rename / copyFile', () => {
      it('rename moves and replaces the destination', async () => {
        await fs.rename(p('f.txt'), p('d', 'f.txt'));
        expect(await nfs.readFile(p('d', 'f.txt'), 'utf8')).toBe('top');
        await expect(nfs.stat(p('f.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
      });
      it('rename of a link moves the link, not its target', async () => {
        await fs.rename(p('link-dir'), p('moved-link'));
        expect((await nfs.lstat(p('moved-link'))).isSymbolicLink()).toBe(true);
        expect((await nfs.lstat(p('d'))).isDirectory()).toBe(true);
      });
      it('rename: NotFound on a missing source', async () => {
        await expectPortError(fs.rename(p('missing'), p('x')), 'NotFound');
      });
      it('copyFile copies bytes, overwrites, and NotFound on a missing source', async () => {
        await fs.copyFile(p('d', 'f.txt'), p('f.txt'));
        expect(await nfs.readFile(p('f.txt'), 'utf8')).toBe('hello');
        expect(await nfs.readFile(p('d', 'f.txt'), 'utf8')).toBe('hello');
        await expectPortError(fs.copyFile(p('missing'), p('y')), 'NotFound');
      });
    });

    describe('unlink / rmdir', () => {
      it('unlink removes a file, and a link as the link alone', async () => {
        await fs.unlink(p('f.txt'));
        await fs.unlink(p('link-dir'));
        await fs.unlink(p('dangling'));
        expect((await nfs.readdir(dir)).sort()).toEqual(['d', 'link-file']);
        expect(await nfs.readFile(p('d', 'f.txt'), 'utf8')).toBe('hello');
      });
      it('unlink: NotFound on missing, IsADirectory on a dir', async () => {
        await expectPortError(fs.unlink(p('missing')), 'NotFound');
        await expectPortError(fs.unlink(p('d')), 'IsADirectory');
        expect((await nfs.lstat(p('d'))).isDirectory()).toBe(true);
      });
      it('rmdir removes an empty dir; NotEmpty on a non-empty one', async () => {
        await nfs.mkdir(p('empty'));
        await fs.rmdir(p('empty'));
        await expect(nfs.stat(p('empty'))).rejects.toMatchObject({ code: 'ENOENT' });
        const err = await expectPortError(fs.rmdir(p('d')), 'NotEmpty');
        expect(err.path).toBe(p('d'));
      });
      it('rmdir: NotFound on missing, NotADirectory on a file or a link to a dir', async () => {
        await expectPortError(fs.rmdir(p('missing')), 'NotFound');
        await expectPortError(fs.rmdir(p('f.txt')), 'NotADirectory');
        await nfs.mkdir(p('e'));
        await nfs.symlink(p('e'), p('link-e'));
        await expectPortError(fs.rmdir(p('link-e')), 'NotADirectory');
        expect((await nfs.lstat(p('e'))).isDirectory()).toBe(true);
      });
    });

    describe('mkdir / mkdtemp / symlink', () => {
      it('mkdir creates; AlreadyExists when present; NotFound without the parent', async () => {
        await fs.mkdir(p('n'));
        expect((await nfs.stat(p('n'))).isDirectory()).toBe(true);
        await expectPortError(fs.mkdir(p('n')), 'AlreadyExists');
        await expectPortError(fs.mkdir(p('x', 'y')), 'NotFound');
      });
      it('mkdir recursive creates the chain and accepts an existing dir', async () => {
        await fs.mkdir(p('a', 'b', 'c'), { recursive: true });
        await fs.mkdir(p('a', 'b', 'c'), { recursive: true });
        expect((await nfs.stat(p('a', 'b', 'c'))).isDirectory()).toBe(true);
      });
      it('mkdtemp makes distinct dirs starting with the prefix', async () => {
        const one = await fs.mkdtemp(p('job-'));
        const two = await fs.mkdtemp(p('job-'));
        expect(one.startsWith(p('job-'))).toBe(true);
        expect(one).not.toBe(two);
        expect((await nfs.stat(one)).isDirectory()).toBe(true);
        await expectPortError(fs.mkdtemp(p('missing', 'job-')), 'NotFound');
      });
      it('symlink creates a link with the target text as given; AlreadyExists when present', async () => {
        await fs.symlink('d/f.txt', p('rel-link'));
        expect(await nfs.readlink(p('rel-link'))).toBe('d/f.txt');
        expect(await nfs.readFile(p('rel-link'), 'utf8')).toBe('hello');
        await expectPortError(fs.symlink('x', p('f.txt')), 'AlreadyExists');
      });
    });

    describe('openDir (fd-anchored directory handles)', () => {
      it('lists, lstats, unlinks and rmdirs entries by name; stat is the opened directory', async () => {
        await nfs.mkdir(p('d', 'e'));
        const h = await fs.openDir(p('d'));
        try {
          expect(h.path).toBe(p('d'));
          const real = await nfs.stat(p('d'));
          const st = await h.stat();
          expect([st.kind, st.dev, st.ino]).toEqual(['dir', real.dev, real.ino]);
          expect((await h.readdir()).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
            { name: 'e', kind: 'dir' },
            { name: 'f.txt', kind: 'file' },
          ]);
          expect((await h.lstat('f.txt')).size).toBe(5);
          const e = await h.openDir('e');
          expect((await e.stat()).ino).toBe((await nfs.stat(p('d', 'e'))).ino);
          await e.close();
          await h.unlink('f.txt');
          await h.rmdir('e');
          expect(await nfs.readdir(p('d'))).toEqual([]);
        } finally {
          await h.close();
        }
      });
      it('never follows a link: openDir of a link or a file is NotADirectory, at the top and by name', async () => {
        await expectPortError(fs.openDir(p('link-dir')), 'NotADirectory');
        await expectPortError(fs.openDir(p('f.txt')), 'NotADirectory');
        await expectPortError(fs.openDir(p('missing')), 'NotFound');
        const h = await fs.openDir(dir);
        try {
          await expectPortError(h.openDir('link-dir'), 'NotADirectory');
          await expectPortError(h.openDir('f.txt'), 'NotADirectory');
          expect((await h.lstat('link-dir')).kind).toBe('symlink');
          await h.unlink('link-dir');
          expect(await nfs.readFile(p('d', 'f.txt'), 'utf8')).toBe('hello');
        } finally {
          await h.close();
        }
      });
      it('refuses a name that is not plain; unlink of a dir, rmdir of a non-empty dir or of a link fail like the port', async () => {
        const h = await fs.openDir(dir);
        try {
          for (const bad of ['', '.', '..', 'd/f.txt', 'a\0b']) await expectPortError(h.lstat(bad), 'InvalidArgument');
          await expectPortError(h.unlink('../x'), 'InvalidArgument');
          await expectPortError(h.unlink('d'), 'IsADirectory');
          await expectPortError(h.rmdir('d'), 'NotEmpty');
          await expectPortError(h.rmdir('link-dir'), 'NotADirectory');
          await expectPortError(h.unlink('missing'), 'NotFound');
        } finally {
          await h.close();
        }
      });
      it('a directory swapped for a link after it was opened: the handle never reaches the link target', async () => {
        await nfs.mkdir(p('victim'));
        await nfs.writeFile(p('victim', 'f.txt'), 'precious');
        const h = await fs.openDir(p('d'));
        try {
          await nfs.rename(p('d'), p('d-moved'));
          await nfs.symlink(p('victim'), p('d'));
          if (h.anchored) {
            // The descriptor holds the directory opened: the call reaches it under its new name.
            await h.unlink('f.txt');
            expect(await nfs.readdir(p('d-moved'))).toEqual([]);
          } else {
            // The checked fallback sees the swap and stops.
            await expectPortError(h.unlink('f.txt'), 'Changed');
            expect(await nfs.readdir(p('d-moved'))).toEqual(['f.txt']);
          }
          expect(await nfs.readFile(p('victim', 'f.txt'), 'utf8')).toBe('precious');
        } finally {
          await h.close();
        }
      });
    });

    describe('non-regular files are never opened for reading', () => {
      it('readFile, readText and readHead of a FIFO reject with NotRegularFile at once (no hang)', async () => {
        expect(spawnSync('mkfifo', [p('fifo')]).status).toBe(0);
        const started = Date.now();
        await expectPortError(fs.readFile(p('fifo')), 'NotRegularFile');
        await expectPortError(fs.readText(p('fifo')), 'NotRegularFile');
        await expectPortError(fs.readHead(p('fifo'), 10), 'NotRegularFile');
        expect(Date.now() - started).toBeLessThan(2000);
      }, 5000);
      it('a link to a FIFO is refused the same way; readHead of a dir is IsADirectory', async () => {
        expect(spawnSync('mkfifo', [p('fifo')]).status).toBe(0);
        await nfs.symlink(p('fifo'), p('to-fifo'));
        await expectPortError(fs.readText(p('to-fifo')), 'NotRegularFile');
        await expectPortError(fs.readHead(p('d'), 10), 'IsADirectory');
      }, 5000);
    });

    describe('fsyncDir / tmpdir', () => {
      it('fsyncDir succeeds on a dir and gives NotFound on a missing one', async () => {
        await fs.fsyncDir(dir);
        await expectPortError(fs.fsyncDir(p('missing')), 'NotFound');
      });
      it('tmpdir is an existing absolute dir', async () => {
        const t = fs.tmpdir();
        expect(isAbsolute(t)).toBe(true);
        expect((await nfs.stat(t)).isDirectory()).toBe(true);
      });
    });
  });
}
