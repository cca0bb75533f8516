import type { fakeHerdrModel } from './fake-herdr-core-model.js';
import type * as NodeFs from 'node:fs';
import type { FakeHerdrState } from './fake-herdr-types.js';

/**
 * The effects the state-file store needs, handed in so the store's text stays self-contained.
 * @public
 */
export interface FakeHerdrStoreIo {
  fs: Pick<typeof NodeFs, 'openSync' | 'writeSync' | 'closeSync' | 'readFileSync' | 'writeFileSync' | 'renameSync' | 'unlinkSync'>;
  pid: number;
  isAlive(pid: number): boolean;
  sleepSync(ms: number): void;
}

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  model: ReturnType<typeof fakeHerdrModel>;
};

/**
 * Core part: the JSON state file, serialised across processes by an O_EXCL lock file and replaced by atomic rename.
 * Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrStore(lib: Reach) {
  const SPIN_MS = 3;
  const MAX_SPINS = 6000;

  function errnoOf(err: unknown): string {
    return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  }

  // A lock whose owner died (a killed fake herdr) is taken over; an empty one is still being written.
  function acquire(io: FakeHerdrStoreIo, lockPath: string): void {
    for (let i = 0; i < MAX_SPINS; i += 1) {
      try {
        const fd = io.fs.openSync(lockPath, 'wx');
        io.fs.writeSync(fd, String(io.pid));
        io.fs.closeSync(fd);
        return;
      } catch (err) {
        if (errnoOf(err) !== 'EEXIST') throw err;
      }
      let owner = Number.NaN;
      try {
        owner = Number.parseInt(String(io.fs.readFileSync(lockPath, 'utf8')), 10);
      } catch {
        continue;
      }
      if (Number.isInteger(owner) && owner > 0 && !io.isAlive(owner)) {
        try {
          io.fs.unlinkSync(lockPath);
        } catch {
          // Another process took it over first.
        }
        continue;
      }
      io.sleepSync(SPIN_MS);
    }
    throw new Error(`fake herdr: the state lock ${lockPath} stayed busy`);
  }

  function withLock<T>(io: FakeHerdrStoreIo, statePath: string, fn: () => T): T {
    const lockPath = `${statePath}.lock`;
    acquire(io, lockPath);
    try {
      return fn();
    } finally {
      try {
        io.fs.unlinkSync(lockPath);
      } catch {
        // Already gone: nothing to release.
      }
    }
  }

  /** The state in the file; a missing file is a machine with no herdr server at all. */
  function read(io: FakeHerdrStoreIo, statePath: string): FakeHerdrState {
    let text: string;
    try {
      text = String(io.fs.readFileSync(statePath, 'utf8'));
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return { ...lib.model.newState(), sessions: {} };
      throw err;
    }
    return JSON.parse(text) as FakeHerdrState;
  }

  function write(io: FakeHerdrStoreIo, statePath: string, state: FakeHerdrState): void {
    const tmp = `${statePath}.${io.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    io.fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
    io.fs.renameSync(tmp, statePath);
  }

  /** Reads, changes and writes the state under the lock; returns what `fn` returned. */
  function update<T>(io: FakeHerdrStoreIo, statePath: string, fn: (state: FakeHerdrState) => { state: FakeHerdrState; result: T }): T {
    return withLock(io, statePath, () => {
      const { state, result } = fn(read(io, statePath));
      write(io, statePath, state);
      return result;
    });
  }

  return { withLock, read, write, update };
}
