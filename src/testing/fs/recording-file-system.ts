import { PortError, type PortErrorCode } from '../../errors.js';
import type { DirEntry, DirHandle, FileStat, FileSystemPort, ReadOptions, WriteOptions } from '../../ports/fs.js';
import type { FaultErrno, MutationOp, RecordedMutation } from './recorded-mutation.js';
import { RecordingDirHandle } from './recording-dir-handle.js';

export type { FaultErrno, MutationOp, RecordedMutation } from './recorded-mutation.js';

/**
 * When to inject a fault: at the n-th mutation (1-based), or whenever a predicate names an errno.
 * @public
 */
export type FaultPlan =
  | { n: number; code: FaultErrno }
  | ((mutation: Readonly<RecordedMutation>, n: number) => FaultErrno | null | undefined);

/**
 * Options of {@link RecordingFileSystem}.
 * @public
 */
export interface RecordingFileSystemOptions {
  /** When to inject a fault instead of running a mutation; default never. */
  failAt?: FaultPlan;
}

const FAULTS: Readonly<Record<FaultErrno, { code: PortErrorCode; text: string }>> = {
  EACCES: { code: 'PermissionDenied', text: 'permission denied' },
  EBUSY: { code: 'Busy', text: 'resource busy or locked' },
  ENOSPC: { code: 'NoSpace', text: 'no space left on device' },
  EIO: { code: 'IoError', text: 'i/o error' },
  EROFS: { code: 'PermissionDenied', text: 'read-only file system' },
};

/**
 * A `FileSystemPort` wrapper that records every attempted mutation in call order and can inject the faults a real disk gives.
 * @example
 * ```ts
 * const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: { n: 2, code: 'EBUSY' } });
 * await removeConfined(fs, root, candidate);
 * expect(fs.mutations.every((m) => m.path.startsWith(root))).toBe(true);
 * ```
 * @public
 */
export class RecordingFileSystem implements FileSystemPort {
  /** Every mutation attempted through this port, including failed and faulted ones. */
  readonly mutations: RecordedMutation[] = [];
  readonly #inner: FileSystemPort;
  readonly #failAt: FaultPlan | undefined;

  /** Wraps `inner`: reads pass straight through, mutations are recorded first. */
  constructor(inner: FileSystemPort, opts: RecordingFileSystemOptions = {}) {
    this.#inner = inner;
    this.#failAt = opts.failAt;
  }

  /** {@inheritDoc FileSystemPort.readdir} */
  readdir(path: string): Promise<DirEntry[]> {
    return this.#inner.readdir(path);
  }
  /** {@inheritDoc FileSystemPort.stat} */
  stat(path: string): Promise<FileStat> {
    return this.#inner.stat(path);
  }
  /** {@inheritDoc FileSystemPort.lstat} */
  lstat(path: string): Promise<FileStat> {
    return this.#inner.lstat(path);
  }
  /** {@inheritDoc FileSystemPort.realpath} */
  realpath(path: string): Promise<string> {
    return this.#inner.realpath(path);
  }
  /** {@inheritDoc FileSystemPort.readlink} */
  readlink(path: string): Promise<string> {
    return this.#inner.readlink(path);
  }
  /** Opens through; the handle's `unlink`/`rmdir` are recorded (and faulted) like the port's own. */
  async openDir(path: string): Promise<DirHandle> {
    return new RecordingDirHandle(await this.#inner.openDir(path), (rec) => this.#record(rec));
  }
  /** {@inheritDoc FileSystemPort.readFile} */
  readFile(path: string, opts?: ReadOptions): Promise<Uint8Array> {
    return opts === undefined ? this.#inner.readFile(path) : this.#inner.readFile(path, opts);
  }
  /** {@inheritDoc FileSystemPort.readText} */
  readText(path: string): Promise<string> {
    return this.#inner.readText(path);
  }
  /** {@inheritDoc FileSystemPort.readHead} */
  readHead(path: string, maxBytes: number): Promise<Uint8Array> {
    return this.#inner.readHead(path, maxBytes);
  }
  /** {@inheritDoc FileSystemPort.fsyncDir} */
  fsyncDir(path: string): Promise<void> {
    return this.#inner.fsyncDir(path);
  }
  /** {@inheritDoc FileSystemPort.tmpdir} */
  tmpdir(): string {
    return this.#inner.tmpdir();
  }

  /** Records a `writeFile` (a planned fault throws instead), then writes through. */
  async writeFile(path: string, data: string | Uint8Array, opts?: WriteOptions): Promise<void> {
    this.#record({ op: 'writeFile', path });
    return this.#inner.writeFile(path, data, opts);
  }
  /** Records a `rename` (a planned fault throws instead), then renames through. */
  async rename(from: string, to: string): Promise<void> {
    this.#record({ op: 'rename', path: from, to });
    return this.#inner.rename(from, to);
  }
  /** Records an `unlink` (a planned fault throws instead), then unlinks through. */
  async unlink(path: string): Promise<void> {
    this.#record({ op: 'unlink', path });
    return this.#inner.unlink(path);
  }
  /** Records an `rmdir` (a planned fault throws instead), then removes through. */
  async rmdir(path: string): Promise<void> {
    this.#record({ op: 'rmdir', path });
    return this.#inner.rmdir(path);
  }
  /** Records a `mkdir` (a planned fault throws instead), then creates through. */
  async mkdir(path: string, opts?: { recursive?: boolean; mode?: number }): Promise<void> {
    this.#record({ op: 'mkdir', path });
    return this.#inner.mkdir(path, opts);
  }
  /**
   * Records an `mkdtemp` (a planned fault throws instead), then creates through; the record's `path` becomes the
   * directory made.
   */
  async mkdtemp(prefix: string): Promise<string> {
    const rec = this.#record({ op: 'mkdtemp', path: prefix });
    rec.path = await this.#inner.mkdtemp(prefix);
    return rec.path;
  }
  /** Records a `copyFile` (a planned fault throws instead), then copies through. */
  async copyFile(from: string, to: string): Promise<void> {
    this.#record({ op: 'copyFile', path: from, to });
    return this.#inner.copyFile(from, to);
  }
  /** Records a `symlink` (a planned fault throws instead), then links through. */
  async symlink(target: string, path: string): Promise<void> {
    this.#record({ op: 'symlink', path, to: target });
    return this.#inner.symlink(target, path);
  }

  // Records the attempt, then throws the PortError the real port would give when a fault is planned for it.
  #record(rec: RecordedMutation): RecordedMutation {
    this.mutations.push(rec);
    const n = this.mutations.length;
    const plan = this.#failAt;
    const errno = typeof plan === 'function' ? plan(rec, n) : plan !== undefined && plan.n === n ? plan.code : undefined;
    if (errno === undefined || errno === null) return rec;
    rec.fault = errno;
    const { code, text } = FAULTS[errno];
    throw new PortError(code, `fs.${rec.op}`, `${errno}: ${text}, ${rec.op} '${rec.path}'`, { path: rec.path, errno });
  }
}
