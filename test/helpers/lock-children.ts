// A temp dir with a lock path per test, and the lock child processes (fs-lock-child.ts) a test starts, SIGKILLed after it
// if still running: what the cross-process lock files share.
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type Child, spawnHelper } from './fs-child.js';
import { makeTempDir } from './fs-temp.js';

export interface LockTestDir {
  /** The test's temp dir. */
  dir(): string;
  /** `<dir>/registry.lock`. */
  lockPath(): string;
  /** Starts `fs-lock-child.ts` with `args`; ended after the test. */
  child(args: string[]): Child;
}

/** Registers, in the current describe block, a fresh temp dir per test and the end of its lock children. */
export function useLockTestDir(): LockTestDir {
  let dir: string | undefined;
  let dispose: () => Promise<void> = async () => undefined;
  const children: Child[] = [];
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-lock-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await dispose();
  });
  const at = (): string => {
    if (dir === undefined) throw new Error('the lock test dir is made before each test');
    return dir;
  };
  return {
    dir: at,
    lockPath: () => join(at(), 'registry.lock'),
    child: (args) => {
      const c = spawnHelper('fs-lock-child.ts', args);
      children.push(c);
      return c;
    },
  };
}
