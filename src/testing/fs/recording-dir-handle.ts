import { join } from 'node:path';
import type { DirEntry, DirHandle, FileStat } from '../../ports/fs.js';
import type { RecordedMutation } from './recorded-mutation.js';

/**
 * A {@link DirHandle} wrapper that records its `unlink`/`rmdir` as the mutations of the path they remove (so a fault plan
 * keyed on a path or an op applies alike to the port's calls and the handle's), through the recorder of its port.
 * @public
 */
export class RecordingDirHandle implements DirHandle {
  readonly #inner: DirHandle;
  readonly #record: (rec: RecordedMutation) => RecordedMutation;

  /** Wraps `inner`; `record` files (and may fault) every mutation before it runs. */
  constructor(inner: DirHandle, record: (rec: RecordedMutation) => RecordedMutation) {
    this.#inner = inner;
    this.#record = record;
  }

  /** {@inheritDoc DirHandle.path} */
  get path(): string {
    return this.#inner.path;
  }
  /** {@inheritDoc DirHandle.anchored} */
  get anchored(): boolean {
    return this.#inner.anchored;
  }
  /** {@inheritDoc DirHandle.stat} */
  stat(): Promise<FileStat> {
    return this.#inner.stat();
  }
  /** {@inheritDoc DirHandle.readdir} */
  readdir(): Promise<DirEntry[]> {
    return this.#inner.readdir();
  }
  /** {@inheritDoc DirHandle.lstat} */
  lstat(name: string): Promise<FileStat> {
    return this.#inner.lstat(name);
  }
  /** {@inheritDoc DirHandle.openDir} */
  async openDir(name: string): Promise<DirHandle> {
    return new RecordingDirHandle(await this.#inner.openDir(name), this.#record);
  }
  /** Records an `unlink` of `<path>/<name>` (a planned fault throws instead), then unlinks through. */
  async unlink(name: string): Promise<void> {
    this.#record({ op: 'unlink', path: join(this.#inner.path, name) });
    return this.#inner.unlink(name);
  }
  /** Records an `rmdir` of `<path>/<name>` (a planned fault throws instead), then removes through. */
  async rmdir(name: string): Promise<void> {
    this.#record({ op: 'rmdir', path: join(this.#inner.path, name) });
    return this.#inner.rmdir(name);
  }
  /** {@inheritDoc DirHandle.close} */
  close(): Promise<void> {
    return this.#inner.close();
  }
}
