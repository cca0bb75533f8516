import Database from '../sqlite/driver.js';
import { describeError, PortError, type PortErrorCode } from '../errors.js';
import { assertOpenedInPlace, assertRegularOrAbsent } from '../node/regular-or-absent.js';
import { enableSqliteUri } from '../node/sqlite-uri.js';
import type { Clock } from '../ports/clock.js';
import { LockTimeoutError } from './lock-timeout-error.js';
import { checkAcquireLock, checkTryLock, checkWithLock } from '../validation/low-level-args.js';

/**
 * A held cross-process lock; `release()` is idempotent and `held` turns false once it ran.
 * @public
 */
export interface LockHandle {
  /** The lock file's path. */
  readonly path: string;
  /** True until `release()` ran. */
  readonly held: boolean;
  /** Drops the lock; a second call does nothing. */
  release(): void;
}

/**
 * Options of {@link acquireLock}.
 * @public
 */
export interface AcquireLockOptions {
  /** The clock the waits between attempts run on. */
  clock: Clock;
  /** Give up with a `LockTimeoutError` after this long (default 10 000 ms; `Infinity` waits until `signal` aborts). */
  timeoutMs?: number;
  /** First delay between attempts (default 10 ms); it grows with jitter up to eight times this. */
  pollMs?: number;
  /** Aborts the wait: rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The jitter's source: a number in [0, 1) per wait (default `Math.random`; a test passes a fixed sequence). */
  random?: () => number;
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function portCodeOfSqlite(code: string | undefined): PortErrorCode {
  if (code === undefined) return 'Unknown';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'Busy';
  if (code.startsWith('SQLITE_IOERR')) return 'IoError';
  if (code === 'SQLITE_FULL') return 'NoSpace';
  if (code === 'SQLITE_PERM' || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) return 'PermissionDenied';
  if (code === 'SQLITE_NOTADB') return 'InvalidArgument';
  return 'Unknown';
}

function lockError(err: unknown, lockPath: string): PortError {
  const message = describeError(err);
  const code = errorCode(err);
  // better-sqlite3 checks the parent directory itself and throws a plain TypeError.
  const portCode = err instanceof TypeError && /directory does not exist/.test(message) ? 'NotFound' : portCodeOfSqlite(code);
  return new PortError(portCode, 'lock.acquire', message, { path: lockPath, ...(code === undefined ? {} : { errno: code }) }, { cause: err });
}

class SqliteLock implements LockHandle {
  #db: Database.Database | null;

  constructor(
    readonly path: string,
    db: Database.Database,
  ) {
    this.#db = db;
  }

  get held(): boolean {
    return this.#db !== null;
  }

  release(): void {
    const db = this.#db;
    if (db === null) return;
    this.#db = null;
    try {
      db.exec('ROLLBACK');
    } catch {
      // close() below rolls back and drops the lock anyway.
    }
    db.close();
  }
}

/**
 * Takes the lock at `lockPath` if it is free right now: a handle, or null when someone (in this or another process) holds it.
 * The lock is SQLite's exclusive lock on an empty file, so the kernel drops it when the holder dies. Never open the lock
 * file any other way in a process that may hold it: closing any descriptor of it drops that process's POSIX locks.
 * @public
 */
export function tryLock(lockPath: string): LockHandle | null {
  checkTryLock([lockPath]);
  return attempt(lockPath);
}

// One attempt at the lock, the path already checked.
function attempt(lockPath: string): LockHandle | null {
  let db: Database.Database;
  // better-sqlite3 fixes URI support at the first open in the process: the lock must not be the open that turns it off.
  enableSqliteUri();
  // A FIFO (or any non-regular file) in place of the lock would block this synchronous open's first read forever; a
  // link (symbolic or hard) would take the lock on, and roll a hot journal into, another file.
  assertRegularOrAbsent('lock.acquire', lockPath, true);
  assertRegularOrAbsent('lock.acquire', `${lockPath}-journal`, true);
  try {
    // timeout 0: never SQLite's blocking busy handler, which would freeze the event loop.
    db = new Database(lockPath, { timeout: 0 });
  } catch (err) {
    throw lockError(err, lockPath);
  }
  try {
    // SQLite resolves links itself: a link swapped in between the look above and the open shows as another file here.
    assertOpenedInPlace('lock.acquire', lockPath, db);
  } catch (err) {
    db.close();
    throw err;
  }
  try {
    // On an empty file this only takes the OS lock (and a transient -journal, deleted by ROLLBACK); nothing is written.
    db.exec('BEGIN EXCLUSIVE');
    return new SqliteLock(lockPath, db);
  } catch (err) {
    db.close();
    const e = lockError(err, lockPath);
    if (e.code === 'Busy') return null;
    throw e;
  }
}

/**
 * Waits for the cross-process lock at `lockPath`, polling with jittered backoff on the given clock (the event loop stays free), and rejects with a `LockTimeoutError` after `timeoutMs`.
 * @example
 * ```ts
 * const lock = await acquireLock('/w/.mam/agent-sessions.lock', { clock: new NodeClock() });
 * try { await update(); } finally { lock.release(); }
 * ```
 * @public
 */
export async function acquireLock(lockPath: string, opts: AcquireLockOptions): Promise<LockHandle> {
  checkAcquireLock([lockPath, opts]);
  return acquire(lockPath, opts);
}

// The wait for the lock, the arguments already checked.
async function acquire(lockPath: string, opts: AcquireLockOptions): Promise<LockHandle> {
  const { clock, signal } = opts;
  const draw = opts.random ?? Math.random;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const pollMs = Math.max(1, opts.pollMs ?? 10);
  const start = clock.monotonic();
  let delayMs = pollMs;
  for (;;) {
    if (signal?.aborted === true) throw signal.reason;
    const lock = attempt(lockPath);
    if (lock !== null) return lock;
    const waitedMs = clock.monotonic() - start;
    if (waitedMs >= timeoutMs) throw new LockTimeoutError({ lockPath, waitedMs: Math.round(waitedMs) });
    // Jitter keeps several waiters from polling in lockstep; at least 1 ms, but never past the deadline.
    const u = draw();
    const jittered = delayMs * (0.75 + (Number.isFinite(u) ? Math.min(1, Math.max(0, u)) : 0.5) * 0.5);
    await clock.sleep(Math.min(timeoutMs - waitedMs, Math.max(1, jittered)), signal);
    delayMs = Math.min(delayMs * 1.5, pollMs * 8);
  }
}

/**
 * Runs `fn` under the lock at `lockPath` and always releases it, whether `fn` resolves or throws.
 * @example
 * ```ts
 * await withLock(lockPath, { clock }, async () => writeFileAtomic(fs, path, next));
 * ```
 * @public
 */
export async function withLock<T>(lockPath: string, opts: AcquireLockOptions, fn: (lock: LockHandle) => T | Promise<T>): Promise<T> {
  checkWithLock([lockPath, opts, fn]);
  const lock = await acquire(lockPath, opts);
  try {
    return await fn(lock);
  } finally {
    lock.release();
  }
}
