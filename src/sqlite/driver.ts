import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { describeError, MamError } from '../errors.js';

/**
 * better-sqlite3's native binding could not be loaded (installed with install scripts off, a failed or foreign build):
 * no database can be opened; `message` says how to fix the install.
 * @public
 */
export class SqliteBindingError extends MamError {
  /** Always `SQLITE_BINDING_MISSING`. */
  declare readonly code: 'SQLITE_BINDING_MISSING';

  /** Builds the fault from the loader's failure; code `SQLITE_BINDING_MISSING`, the loader's message in `data.detail`. */
  constructor(cause: unknown) {
    const detail = describeError(cause);
    super(
      'SQLITE_BINDING_MISSING',
      `better-sqlite3's native binding is missing or cannot load (${detail}): rebuild it (npm rebuild better-sqlite3) or reinstall with install scripts allowed`,
      { detail },
      { cause },
    );
  }
}

/** What loads the better-sqlite3 module (the real `require`, or a test's stand-in). */
export type SqliteLoader = () => typeof BetterSqlite3;

const realLoader: SqliteLoader = () => createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

// better-sqlite3 (a native addon) is loaded on the first `new Database(…)`, not when @mam/core is imported: the import of
// the package stays cheap for code that never opens a database, and imports without the binding. It is CommonJS, so a
// synchronous `require` loads it. A failed load is not remembered: a rebuilt binding is picked up by the next open.
let loaded: typeof BetterSqlite3 | undefined;
const override = new AsyncLocalStorage<SqliteLoader>();
const openFaults = new AsyncLocalStorage<(err: unknown, path: string | null) => void>();


function load(): typeof BetterSqlite3 {
  const loader = override.getStore();
  if (loader !== undefined) return wrapLoad(loader);
  loaded ??= wrapLoad(realLoader);
  return loaded;
}

function wrapLoad(loader: SqliteLoader): typeof BetterSqlite3 {
  try {
    return loader();
  } catch (err) {
    throw new SqliteBindingError(err);
  }
}

/**
 * Runs `fn` with `loader` standing in for the better-sqlite3 module in every database opened inside it (tests inject a
 * missing binding or a failing disk this way); outside it the real module is used.
 */
export function withSqliteLoader<T>(loader: SqliteLoader, fn: () => T): T {
  return override.run(loader, fn);
}

/**
 * Runs `fn` telling `note` of every database open, statement or transaction inside it that throws (the error and the
 * database's path), so a caller can name the cause of what its work left (a purge: a missing binding, a read-only or
 * full disk); outside it connections are better-sqlite3's own, unwrapped.
 */
export function withSqliteOpenFaults<T>(note: (err: unknown, path: string | null) => void, fn: () => T): T {
  return openFaults.run(note, fn);
}

type Note = (err: unknown, path: string | null) => void;

// A function (a transaction, and its deferred/immediate/exclusive forms) whose throw is told to `note` first.
function notingFn(fn: (...a: unknown[]) => unknown, note: Note, path: string | null): (...a: unknown[]) => unknown {
  const wrap = (f: (...a: unknown[]) => unknown) =>
    function (this: unknown, ...args: unknown[]): unknown {
      try {
        return f.apply(this, args);
      } catch (err) {
        note(err, path);
        throw err;
      }
    };
  const out = wrap(fn) as ((...a: unknown[]) => unknown) & Record<string, unknown>;
  for (const key of ['default', 'deferred', 'immediate', 'exclusive']) {
    const form = (fn as unknown as Record<string, unknown>)[key];
    if (typeof form === 'function') out[key] = wrap(form as (...a: unknown[]) => unknown);
  }
  out['database'] = (fn as unknown as Record<string, unknown>)['database'];
  return out;
}

// A connection (or statement) whose every call that throws is told to `note` first. Methods run on the real object:
// better-sqlite3's native methods refuse any other `this`.
function noting<T extends object>(target: T, note: Note, path: string | null): T {
  const call = (fn: (...a: unknown[]) => unknown, self: unknown, args: unknown[]): unknown => {
    let out: unknown;
    try {
      out = fn.apply(self, args);
    } catch (err) {
      note(err, path);
      throw err;
    }
    // A prepared statement or a transaction function carries the same watch (their failures are the writes').
    if (typeof out === 'function') return notingFn(out as (...a: unknown[]) => unknown, note, path);
    return typeof out === 'object' && out !== null && out.constructor?.name === 'Statement' ? noting(out, note, path) : out;
  };
  return new Proxy(target, {
    get: (t, key) => {
      const value: unknown = Reflect.get(t, key);
      return typeof value === 'function' && key !== 'constructor' ? (...args: unknown[]) => call(value as (...a: unknown[]) => unknown, t, args) : value;
    },
  });
}

function construct(args: unknown[]): object {
  const note: Note | undefined = openFaults.getStore();
  const path = typeof args[0] === 'string' ? args[0] : null;
  let db: object;
  try {
    db = Reflect.construct(load(), args) as object;
  } catch (err) {
    note?.(err, path);
    throw err;
  }
  return note === undefined ? db : noting(db, note, path);
}

/** The real better-sqlite3 module (what a stand-in loader wraps); throws {@link SqliteBindingError} when it cannot load. */
export function realSqliteModule(): typeof BetterSqlite3 {
  loaded ??= wrapLoad(realLoader);
  return loaded;
}

/**
 * The better-sqlite3 constructor, loaded when first used: `new Database(path, options)`, `Database.SqliteError`, …
 * exactly as the module's default export (the types are better-sqlite3's own, used inside the package only).
 */
const Database: typeof BetterSqlite3 = new Proxy(function LazyDatabase() {} as unknown as typeof BetterSqlite3, {
  construct: (_target, args: unknown[]) => construct(args),
  apply: (_target, self: unknown, args: unknown[]) => Reflect.apply(load(), self, args) as unknown,
  get: (_target, key) => Reflect.get(load(), key) as unknown,
  has: (_target, key) => Reflect.has(load(), key),
});

// Types under the same name, so `Database.Database` and `Database.Statement` read as with the real import.
declare namespace Database {
  /** A better-sqlite3 connection. */
  type Database = BetterSqlite3.Database;
  /** A better-sqlite3 prepared statement. */
  type Statement<P extends unknown[] | object = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;
  /** better-sqlite3's constructor options. */
  type Options = BetterSqlite3.Options;
}

export default Database;
