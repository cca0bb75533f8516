// From node:fs/promises, not node:fs: an ES import of node:fs loads Node's stream stack (see regular-or-absent.ts).
import { constants as fsConstants } from 'node:fs/promises';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PortError } from '../errors.js';
import type { DirEntry, DirHandle, FileStat, FileSystemPort, ReadOptions, WriteOptions } from '../ports/fs.js';
import { openNodeDir, procFdWorks } from './node-dir-handle.js';
import { errnoOf, fsError, kindOf, toFileStat } from './node-fs-errors.js';
import { checkOwnStat, isNoFollowErrno, linkedError, openRegular, readRegular } from './node-read-regular.js';

const HEAD_CHUNK = 64 * 1024;

async function guard<T>(op: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw fsError(err, op, path);
  }
}

// The same for the calls made by the thousand (stat, lstat, realpath, readdir): one promise chain, no async wrappers —
// their methods are not `async` either (`fs.promises` never throws, it rejects), so a call is the two promises a bare
// `fs.promises` call and its `.then` are.
function mapped<T, R>(op: string, path: string, run: Promise<T>, map: (value: T) => R): Promise<R> {
  return run.then(map, (err: unknown) => {
    throw fsError(err, op, path);
  });
}

const same = <T>(value: T): T => value;

function writeFlags(opts: WriteOptions): string {
  const base = opts.append === true ? 'a' : 'w';
  return opts.exclusive === true ? `${base}x` : base;
}

// No O_TRUNC: a file is truncated only after its descriptor proved it is a regular file of its own (a hard link's
// other name would otherwise lose its bytes at the open itself).
const OWN_WRITE_FLAGS = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

// The `noLink` open of writeFile: no link followed, checked on the descriptor, then truncated unless appending.
async function openOwnForWrite(path: string, opts: WriteOptions): Promise<fsp.FileHandle> {
  const flags = OWN_WRITE_FLAGS | (opts.exclusive === true ? fsConstants.O_EXCL : 0) | (opts.append === true ? fsConstants.O_APPEND : 0);
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, flags, opts.mode);
  } catch (err) {
    if (isNoFollowErrno(err)) throw linkedError('fs.writeFile', path, 'the path is a symbolic link', err);
    // ENXIO: a FIFO opened for writing without a reader (O_NONBLOCK) — never written.
    if (errnoOf(err) === 'ENXIO') throw new PortError('NotRegularFile', 'fs.writeFile', `not a regular file (a FIFO, socket or device is never written): '${path}'`, { path, errno: 'ENXIO' }, { cause: err });
    throw err;
  }
  try {
    checkOwnStat('fs.writeFile', path, await handle.stat(), true, 'write');
    if (opts.append !== true) await handle.truncate(0);
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

let probed: Promise<boolean> | undefined;
// Whether /proc/self/fd anchors calls here: probed once per process.
function procFdProbe(): Promise<boolean> {
  probed ??= procFdWorks(tmpdir());
  return probed;
}

/**
 * Options of {@link NodeFileSystem}.
 * @public
 */
export interface NodeFileSystemOptions {
  /**
   * Whether directory handles may go through `/proc/self/fd` (default: when it works, i.e. on Linux); `false` forces the
   * checked fallback the platforms without it get (device and inode verified at every call), e.g. to test it.
   */
  procFd?: boolean;
}

/**
 * The real {@link FileSystemPort} over `node:fs/promises`; every failure is a {@link PortError} naming the operation and path.
 * @public
 */
export class NodeFileSystem implements FileSystemPort {
  // Plain (not #private) state: callers copy a port with Object.assign to override one method, and the copy must work.
  private readonly procFdAllowed: boolean;

  /** Builds the port; see {@link NodeFileSystemOptions}. */
  constructor(opts: NodeFileSystemOptions = {}) {
    this.procFdAllowed = opts.procFd !== false;
  }

  /** {@inheritDoc FileSystemPort.readdir} */
  readdir(path: string): Promise<DirEntry[]> {
    return mapped('fs.readdir', path, fsp.readdir(path, { withFileTypes: true }), (entries) => entries.map((e) => ({ name: e.name, kind: kindOf(e) })));
  }

  /** {@inheritDoc FileSystemPort.stat} */
  stat(path: string): Promise<FileStat> {
    return mapped('fs.stat', path, fsp.stat(path), toFileStat);
  }

  /** {@inheritDoc FileSystemPort.lstat} */
  lstat(path: string): Promise<FileStat> {
    return mapped('fs.lstat', path, fsp.lstat(path), toFileStat);
  }

  /** {@inheritDoc FileSystemPort.realpath} */
  realpath(path: string): Promise<string> {
    return mapped('fs.realpath', path, fsp.realpath(path), same);
  }

  /** {@inheritDoc FileSystemPort.readlink} */
  async readlink(path: string): Promise<string> {
    return guard('fs.readlink', path, () => fsp.readlink(path));
  }

  /** {@inheritDoc FileSystemPort.openDir} */
  async openDir(path: string): Promise<DirHandle> {
    return openNodeDir(path, this.procFdAllowed && (await procFdProbe()));
  }

  /** {@inheritDoc FileSystemPort.readFile} */
  async readFile(path: string, opts: ReadOptions = {}): Promise<Uint8Array> {
    return guard('fs.readFile', path, async () => {
      const buf = await readRegular('fs.readFile', path, opts.noLink === true);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    });
  }

  /** {@inheritDoc FileSystemPort.readText} */
  async readText(path: string): Promise<string> {
    return guard('fs.readText', path, async () => (await readRegular('fs.readText', path)).toString('utf8'));
  }

  /** {@inheritDoc FileSystemPort.readHead} */
  async readHead(path: string, maxBytes: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
      throw new PortError('InvalidArgument', 'fs.readHead', `maxBytes must be a non-negative integer, got ${String(maxBytes)}`, { path });
    }
    return guard('fs.readHead', path, async () => {
      const handle = await openRegular('fs.readHead', path);
      try {
        // Read in bounded chunks: the size from fstat may be 0 (procfs) or stale (a growing log).
        const chunks: Uint8Array[] = [];
        let total = 0;
        while (total < maxBytes) {
          const chunk = new Uint8Array(Math.min(HEAD_CHUNK, maxBytes - total));
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
          if (bytesRead === 0) break;
          chunks.push(chunk.subarray(0, bytesRead));
          total += bytesRead;
        }
        const out = new Uint8Array(total);
        let at = 0;
        for (const c of chunks) {
          out.set(c, at);
          at += c.length;
        }
        return out;
      } finally {
        await handle.close();
      }
    });
  }

  /** {@inheritDoc FileSystemPort.writeFile} */
  async writeFile(path: string, data: string | Uint8Array, opts: WriteOptions = {}): Promise<void> {
    return guard('fs.writeFile', path, async () => {
      const handle = opts.noLink === true ? await openOwnForWrite(path, opts) : await fsp.open(path, writeFlags(opts), opts.mode);
      try {
        await handle.writeFile(data);
        if (opts.sync === true) await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  /** {@inheritDoc FileSystemPort.rename} */
  async rename(from: string, to: string): Promise<void> {
    return guard('fs.rename', from, () => fsp.rename(from, to));
  }

  /** {@inheritDoc FileSystemPort.unlink} */
  async unlink(path: string): Promise<void> {
    try {
      await fsp.unlink(path);
    } catch (err) {
      // macOS answers EPERM (Linux EISDIR) for unlink of a directory: report it the same everywhere.
      if (errnoOf(err) === 'EPERM' && (await this.isDir(path))) {
        throw new PortError('IsADirectory', 'fs.unlink', `EISDIR: is a directory, unlink '${path}'`, { path, errno: 'EISDIR' }, { cause: err });
      }
      throw fsError(err, 'fs.unlink', path);
    }
  }

  /** {@inheritDoc FileSystemPort.rmdir} */
  async rmdir(path: string): Promise<void> {
    try {
      await fsp.rmdir(path);
    } catch (err) {
      // POSIX lets rmdir of a non-empty directory fail with EEXIST instead of ENOTEMPTY.
      if (errnoOf(err) === 'EEXIST') {
        throw new PortError('NotEmpty', 'fs.rmdir', `ENOTEMPTY: directory not empty, rmdir '${path}'`, { path, errno: 'EEXIST' }, { cause: err });
      }
      throw fsError(err, 'fs.rmdir', path);
    }
  }

  /** {@inheritDoc FileSystemPort.mkdir} */
  async mkdir(path: string, opts: { recursive?: boolean; mode?: number } = {}): Promise<void> {
    await guard('fs.mkdir', path, () => fsp.mkdir(path, opts));
  }

  /** {@inheritDoc FileSystemPort.mkdtemp} */
  async mkdtemp(prefix: string): Promise<string> {
    return guard('fs.mkdtemp', prefix, () => fsp.mkdtemp(prefix));
  }

  /** {@inheritDoc FileSystemPort.copyFile} */
  async copyFile(from: string, to: string): Promise<void> {
    return guard('fs.copyFile', from, () => fsp.copyFile(from, to));
  }

  /** {@inheritDoc FileSystemPort.symlink} */
  async symlink(target: string, path: string): Promise<void> {
    return guard('fs.symlink', path, () => fsp.symlink(target, path));
  }

  /** {@inheritDoc FileSystemPort.fsyncDir} */
  async fsyncDir(path: string): Promise<void> {
    return guard('fs.fsyncDir', path, async () => {
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(path, fsConstants.O_RDONLY);
      } catch (err) {
        // Windows refuses to open a directory at all; there is nothing to fsync there.
        if (errnoOf(err) === 'EISDIR') return;
        throw err;
      }
      try {
        await handle.sync();
      } catch (err) {
        // Some platforms cannot fsync a directory handle; the rename is as durable as they allow.
        const errno = errnoOf(err);
        if (errno !== 'EINVAL' && errno !== 'EISDIR' && errno !== 'EBADF' && errno !== 'EPERM') throw err;
      } finally {
        await handle.close();
      }
    });
  }

  /** {@inheritDoc FileSystemPort.tmpdir} */
  tmpdir(): string {
    return tmpdir();
  }

  private async isDir(path: string): Promise<boolean> {
    try {
      return (await fsp.lstat(path)).isDirectory();
    } catch {
      return false;
    }
  }
}
