import * as nfs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockTimeoutError, tryLock } from '../../src/atomic/index.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { useLockTestDir } from '../helpers/lock-children.js';

// In the serial group: these cases bound how long a process waits for another (a loaded machine would stretch the waits).
// The many-writers case bounds no wait and runs with the rest (lock-many-writers.test.ts).
describe('cross-process lock with real processes', () => {
  const clock = new NodeClock();
  const { dir, lockPath, child } = useLockTestDir();

  it('a holder killed with SIGKILL does not block: the parent gets the lock right after', async () => {
    const holder = child(['hold', lockPath()]);
    await holder.line('held');
    expect(tryLock(lockPath())).toBeNull();
    // SQLite 3.53 keeps an empty `-journal` beside an empty lock file while it is held.
    expect(['registry.lock', 'registry.lock-journal']).toEqual(expect.arrayContaining(await nfs.readdir(dir())));
    holder.proc.kill('SIGKILL');
    expect((await holder.exit).signal).toBe('SIGKILL');
    const start = clock.monotonic();
    const lock = await acquireLock(lockPath(), { clock, timeoutMs: 2000, pollMs: 5 });
    expect(clock.monotonic() - start).toBeLessThan(1000);
    expect(lock.held).toBe(true);
    lock.release();
    // The killed holder's transient journal is cleaned up by the next holder, and the lock file stays empty.
    expect(await nfs.readdir(dir())).toEqual(['registry.lock']);
    expect((await nfs.stat(lockPath())).size).toBe(0);
  });

  it('a holder that releases lets a waiting process in, not before', async () => {
    const holder = child(['hold', lockPath(), '300']);
    await holder.line('held');
    const start = clock.monotonic();
    const lock = await acquireLock(lockPath(), { clock, timeoutMs: 10_000, pollMs: 5 });
    const waited = clock.monotonic() - start;
    await holder.line('released');
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThan(5000);
    lock.release();
    expect((await holder.exit).code).toBe(0);
  });

  it('times out with LOCK_TIMEOUT while another process holds it', async () => {
    const holder = child(['hold', lockPath()]);
    await holder.line('held');
    const err = await acquireLock(lockPath(), { clock, timeoutMs: 250, pollMs: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    const timeout = err as LockTimeoutError;
    expect(timeout.code).toBe('LOCK_TIMEOUT');
    expect(timeout.data.lockPath).toBe(lockPath());
    expect(timeout.data.waitedMs).toBeGreaterThanOrEqual(250);
    expect(timeout.data.waitedMs).toBeLessThan(2000);
  });

  it('a process waiting on a lock held in this process gets it when this process releases', async () => {
    const mine = tryLock(lockPath());
    expect(mine).not.toBeNull();
    const waiter = child(['hold', lockPath(), '0']);
    await waiter.line('waiting');
    await clock.sleep(300);
    expect(waiter.printed('held')).toBe(false);
    mine?.release();
    await waiter.line('released');
    expect((await waiter.exit).code).toBe(0);
  });
});
