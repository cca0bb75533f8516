// A FileSystemPort that records every call (reads included), to prove an id reached no path at all, and to count what
// discovery reads (readHead sizes; readFile/readText must never touch a rollout).
import { join } from 'node:path';
import type { DirEntry, DirHandle, FileStat, FileSystemPort, ReadOptions, WriteOptions } from '../../src/ports/fs.js';

export interface SpyCall {
  op: string;
  path: string;
  bytes?: number;
}

export class SpyFileSystem implements FileSystemPort {
  readonly calls: SpyCall[] = [];
  constructor(private readonly inner: FileSystemPort) {}

  #rec<T>(op: string, path: string, run: () => Promise<T>, bytes?: number): Promise<T> {
    this.calls.push(bytes === undefined ? { op, path } : { op, path, bytes });
    return run();
  }
  readdir(p: string): Promise<DirEntry[]> {
    return this.#rec('readdir', p, () => this.inner.readdir(p));
  }
  stat(p: string): Promise<FileStat> {
    return this.#rec('stat', p, () => this.inner.stat(p));
  }
  lstat(p: string): Promise<FileStat> {
    return this.#rec('lstat', p, () => this.inner.lstat(p));
  }
  realpath(p: string): Promise<string> {
    return this.#rec('realpath', p, () => this.inner.realpath(p));
  }
  readlink(p: string): Promise<string> {
    return this.#rec('readlink', p, () => this.inner.readlink(p));
  }
  async openDir(p: string): Promise<DirHandle> {
    return this.#rec('openDir', p, async () => this.#wrap(await this.inner.openDir(p)));
  }
  // A handle whose calls are recorded under the path they reach (`<dir>/<name>`), like the port's own.
  #wrap(h: DirHandle): DirHandle {
    const at = (name: string): string => join(h.path, name);
    return {
      path: h.path,
      anchored: h.anchored,
      stat: () => h.stat(),
      readdir: () => this.#rec('readdir', h.path, () => h.readdir()),
      lstat: (n) => this.#rec('lstat', at(n), () => h.lstat(n)),
      openDir: (n) => this.#rec('openDir', at(n), async () => this.#wrap(await h.openDir(n))),
      unlink: (n) => this.#rec('unlink', at(n), () => h.unlink(n)),
      rmdir: (n) => this.#rec('rmdir', at(n), () => h.rmdir(n)),
      close: () => h.close(),
    };
  }
  readFile(p: string, opts?: ReadOptions): Promise<Uint8Array> {
    return this.#rec('readFile', p, () => this.inner.readFile(p, opts));
  }
  readText(p: string): Promise<string> {
    return this.#rec('readText', p, () => this.inner.readText(p));
  }
  readHead(p: string, n: number): Promise<Uint8Array> {
    return this.#rec('readHead', p, () => this.inner.readHead(p, n), n);
  }
  writeFile(p: string, d: string | Uint8Array, o?: WriteOptions): Promise<void> {
    return this.#rec('writeFile', p, () => this.inner.writeFile(p, d, o));
  }
  rename(a: string, b: string): Promise<void> {
    return this.#rec('rename', a, () => this.inner.rename(a, b));
  }
  unlink(p: string): Promise<void> {
    return this.#rec('unlink', p, () => this.inner.unlink(p));
  }
  rmdir(p: string): Promise<void> {
    return this.#rec('rmdir', p, () => this.inner.rmdir(p));
  }
  mkdir(p: string, o?: { recursive?: boolean; mode?: number }): Promise<void> {
    return this.#rec('mkdir', p, () => this.inner.mkdir(p, o));
  }
  mkdtemp(p: string): Promise<string> {
    return this.#rec('mkdtemp', p, () => this.inner.mkdtemp(p));
  }
  copyFile(a: string, b: string): Promise<void> {
    return this.#rec('copyFile', a, () => this.inner.copyFile(a, b));
  }
  symlink(t: string, p: string): Promise<void> {
    return this.#rec('symlink', p, () => this.inner.symlink(t, p));
  }
  fsyncDir(p: string): Promise<void> {
    return this.#rec('fsyncDir', p, () => this.inner.fsyncDir(p));
  }
  tmpdir(): string {
    return this.inner.tmpdir();
  }
}
