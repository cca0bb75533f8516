import type * as NodeFs from 'node:fs';
import type { FakeHerdrStoreIo } from './fake-herdr-core-store.js';

/**
 * The state file's process-level I/O (pid, liveness of a lock owner, a blocking sleep), shared by the fake executable and the
 * state-file helpers. Self-contained: its source text is embedded in the executable too.
 * @public
 */
export function makeFakeHerdrStoreIo(fs: typeof NodeFs): FakeHerdrStoreIo {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  return {
    fs,
    pid: process.pid,
    isAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as { code?: string }).code === 'EPERM';
      }
    },
    sleepSync: (ms) => {
      Atomics.wait(sleeper, 0, 0, ms);
    },
  };
}
