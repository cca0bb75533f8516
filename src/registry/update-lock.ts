import type { LockHandle } from '../atomic/lock.js';
import { isPortError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystemPort } from '../ports/fs.js';
import { registryWork } from './lazy-registry-work.js';
import type { RegistryPaths } from './registry-paths.js';

/** What {@link UpdateLock} needs: the two ports, the registry's files, and the caller's options. */
export interface UpdateLockOptions {
  fs: FileSystemPort;
  clock: Clock;
  paths: RegistryPaths;
  timeoutMs: number;
  createWorkspace: boolean;
}

/**
 * The cross-process lock of one SessionRegistry instance's updates. `.mam/` is made on the first update (and again if
 * it has gone since); `.mam/` must be a real directory and the lock file (and its journal) files of their own before
 * SQLite opens them.
 */
export class UpdateLock {
  readonly #o: UpdateLockOptions;
  #dirMade = false;

  constructor(opts: UpdateLockOptions) {
    this.#o = opts;
  }

  /** Waits for the lock (until `timeoutMs`, or until `signal` stops it) and holds it. */
  async acquire(signal: AbortSignal | undefined): Promise<LockHandle> {
    const w = await registryWork();
    const { clock, paths } = this.#o;
    const opts = { clock, timeoutMs: this.#o.timeoutMs, pollMs: 2, ...(signal === undefined ? {} : { signal }) };
    if (!this.#dirMade) {
      await this.#makeDir();
      this.#dirMade = true;
    }
    try {
      await this.#checkLockNames();
      return await w.acquireLock(paths.lock, opts);
    } catch (err) {
      if (!isPortError(err, 'NotFound')) throw err;
      await this.#makeDir();
      await this.#checkLockNames();
      return w.acquireLock(paths.lock, opts);
    }
  }

  // `.mam/` when it is not there (after the workspace check); a link or a file in its place is refused, never followed.
  async #makeDir(): Promise<void> {
    const w = await registryWork();
    const { fs, paths } = this.#o;
    // A workspace that is not there (or is a file) is the workspace's refusal, named as such, before `.mam/`'s.
    const state = await w.registryDirState(fs, paths.dir).catch(async (err: unknown) => {
      if (isPortError(err, 'NotADirectory')) await this.#requireWorkspace();
      throw err;
    });
    if (state === 'present') return;
    await this.#requireWorkspace();
    await fs.mkdir(paths.dir, { recursive: true });
    await w.registryDirState(fs, paths.dir);
  }

  async #checkLockNames(): Promise<void> {
    const w = await registryWork();
    const { fs, paths } = this.#o;
    const { lock, yaml } = paths;
    if ((await w.registryDirState(fs, paths.dir)) === 'absent') return;
    const names = [lock, `${lock}-journal`];
    await w.checkOwnNames(fs, names, yaml);
    await w.refuseDatabasesAt(fs, names);
  }

  // A workspace that does not exist is a typo unless the caller opted in: `.mam/` is never made with mkdir -p behind its back.
  async #requireWorkspace(): Promise<void> {
    if (this.#o.createWorkspace) return;
    const ws = this.#o.paths.workspace;
    let kind: string;
    try {
      kind = (await this.#o.fs.stat(ws)).kind;
    } catch (err) {
      if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) {
        throw new InvalidArgumentError('workspace', `${ws} does not exist (pass { createWorkspace: true } to create it)`);
      }
      throw err;
    }
    if (kind !== 'dir') throw new InvalidArgumentError('workspace', `${ws} is not a directory`);
  }
}
