// From node:fs/promises, not node:fs: an ES import of node:fs loads Node's stream stack (see regular-or-absent.ts).
import { constants as fsConstants } from 'node:fs/promises';
import * as fsp from 'node:fs/promises';
import { join, sep } from 'node:path';
import { PortError } from '../errors.js';
import type { DirEntry, DirHandle, FileStat } from '../ports/fs.js';
import { errnoOf, fsError, kindOf, toFileStat } from './node-fs-errors.js';

// O_NOFOLLOW refuses a link as the last component; O_DIRECTORY refuses anything but a directory (ENOTDIR for both on Linux).
const DIR_FLAGS = fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW;

/** One directory of a checked chain: the path it was opened by and the device/inode it had then. */
interface ChainLink {
  path: string;
  dev: number;
  ino: number;
}

function assertPlainName(op: string, dir: string, name: string): void {
  if (typeof name !== 'string' || name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(sep) || name.includes('\0')) {
    throw new PortError('InvalidArgument', op, `not a plain entry name: ${JSON.stringify(name)}`, { path: dir });
  }
}

async function openDirFd(path: string): Promise<fsp.FileHandle> {
  try {
    return await fsp.open(path, DIR_FLAGS);
  } catch (err) {
    // ELOOP is what some systems give O_NOFOLLOW on a link: here it means the same as ENOTDIR, not a directory to open.
    if (errnoOf(err) === 'ELOOP') throw new PortError('NotADirectory', 'fs.openDir', `ENOTDIR: a link is not opened, '${path}'`, { path, errno: 'ELOOP' }, { cause: err });
    throw fsError(err, 'fs.openDir', path);
  }
}

async function unlinkAt(target: string, shown: string): Promise<void> {
  try {
    await fsp.unlink(target);
  } catch (err) {
    // macOS answers EPERM (Linux EISDIR) for unlink of a directory: report it the same everywhere.
    if (errnoOf(err) === 'EPERM' && (await fsp.lstat(target).then((s) => s.isDirectory(), () => false))) {
      throw new PortError('IsADirectory', 'fs.unlink', `EISDIR: is a directory, unlink '${shown}'`, { path: shown, errno: 'EISDIR' }, { cause: err });
    }
    throw fsError(err, 'fs.unlink', shown);
  }
}

async function rmdirAt(target: string, shown: string): Promise<void> {
  try {
    await fsp.rmdir(target);
  } catch (err) {
    // POSIX lets rmdir of a non-empty directory fail with EEXIST instead of ENOTEMPTY.
    if (errnoOf(err) === 'EEXIST') throw new PortError('NotEmpty', 'fs.rmdir', `ENOTEMPTY: directory not empty, rmdir '${shown}'`, { path: shown, errno: 'EEXIST' }, { cause: err });
    throw fsError(err, 'fs.rmdir', shown);
  }
}

async function guard<T>(op: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw fsError(err, op, path);
  }
}

/**
 * The two ways a Node directory handle reaches its entries: through `/proc/self/fd/<fd>/<name>` (anchored: the kernel
 * resolves the name in the directory the descriptor holds, whatever its path names now), or through the path string,
 * with the device and inode of every directory of the chain checked before and after each call.
 */
class NodeDirHandle implements DirHandle {
  readonly #fh: fsp.FileHandle;
  readonly #chain: readonly ChainLink[];

  constructor(
    readonly path: string,
    fh: fsp.FileHandle,
    chain: readonly ChainLink[],
    readonly anchored: boolean,
  ) {
    this.#fh = fh;
    this.#chain = chain;
  }

  // Where a call reaches the entry `name`: the descriptor's magic link when anchored, else the path string.
  #at(name?: string): string {
    const base = this.anchored ? `/proc/self/fd/${this.#fh.fd}` : this.path;
    return name === undefined ? base : join(base, name);
  }

  // Only when not anchored: every directory from the first opened down to this one must still be the one opened.
  async #verify(op: string): Promise<void> {
    if (this.anchored) return;
    for (const link of this.#chain) {
      const st = await fsp.lstat(link.path).catch(() => null);
      if (st === null || !st.isDirectory() || st.dev !== link.dev || st.ino !== link.ino) {
        throw new PortError('Changed', op, `a directory changed while open (moved or swapped): '${link.path}'`, { path: link.path });
      }
    }
  }

  async #step<T>(op: string, name: string | undefined, run: () => Promise<T>): Promise<T> {
    if (name !== undefined) assertPlainName(op, this.path, name);
    await this.#verify(op);
    const out = await run();
    await this.#verify(op);
    return out;
  }

  stat(): Promise<FileStat> {
    return guard('fs.stat', this.path, async () => toFileStat(await this.#fh.stat()));
  }

  readdir(): Promise<DirEntry[]> {
    return this.#step('fs.readdir', undefined, () =>
      guard('fs.readdir', this.path, async () => (await fsp.readdir(this.#at(), { withFileTypes: true })).map((e) => ({ name: e.name, kind: kindOf(e) }))),
    );
  }

  lstat(name: string): Promise<FileStat> {
    return this.#step('fs.lstat', name, () => guard('fs.lstat', join(this.path, name), async () => toFileStat(await fsp.lstat(this.#at(name)))));
  }

  async openDir(name: string): Promise<DirHandle> {
    const path = join(this.path, name);
    assertPlainName('fs.openDir', this.path, name);
    await this.#verify('fs.openDir');
    const fh = await openDirFd(this.#at(name));
    // The check after the open runs here, not in #step: a swap it detects must not leak the handle just opened.
    try {
      await this.#verify('fs.openDir');
      const st = await fh.stat();
      return new NodeDirHandle(path, fh, [...this.#chain, { path, dev: st.dev, ino: st.ino }], this.anchored);
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw fsError(err, 'fs.openDir', path);
    }
  }

  unlink(name: string): Promise<void> {
    return this.#step('fs.unlink', name, () => unlinkAt(this.#at(name), join(this.path, name)));
  }

  rmdir(name: string): Promise<void> {
    return this.#step('fs.rmdir', name, () => rmdirAt(this.#at(name), join(this.path, name)));
  }

  async close(): Promise<void> {
    await this.#fh.close().catch(() => undefined);
  }
}

/**
 * Opens `path` as a {@link DirHandle} (never following a link as its last component); anchored through `/proc/self/fd`
 * when `procFd` is true, else checked by device and inode at every call.
 */
export async function openNodeDir(path: string, procFd: boolean): Promise<DirHandle> {
  const fh = await openDirFd(path);
  try {
    const st = await fh.stat();
    if (!procFd) {
      // The path must still name what was opened, or the chain would start from a directory it does not name.
      const now = await fsp.lstat(path);
      if (!now.isDirectory() || now.dev !== st.dev || now.ino !== st.ino) throw new PortError('Changed', 'fs.openDir', `a directory changed while being opened: '${path}'`, { path });
    }
    return new NodeDirHandle(path, fh, [{ path, dev: st.dev, ino: st.ino }], procFd);
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw fsError(err, 'fs.openDir', path);
  }
}

/** True when `/proc/self/fd/<fd>` of an open directory reaches that very directory (Linux procfs); probed once per port. */
export async function procFdWorks(probeDir: string): Promise<boolean> {
  try {
    const fh = await fsp.open(probeDir, DIR_FLAGS);
    try {
      const [a, b] = await Promise.all([fh.stat(), fsp.stat(`/proc/self/fd/${fh.fd}`)]);
      return a.dev === b.dev && a.ino === b.ino && b.isDirectory();
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}
