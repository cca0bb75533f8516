import { dirname, isAbsolute, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from './driver.js';
import { PortError } from '../errors.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';
import { lstatOrNull } from '../paths/lstat-or-null.js';
import { dropKept, keptUnderDir, lookTime, parkOrClose, takeKept, takeKeptByDir } from './kept-connections.js';
import { openMemoryImage } from './memory-image.js';
import { scopedHandle } from './read-scope.js';
import { readPrivateCopy } from './private-copy.js';
import { isBusySqliteCode, SqliteReadError } from './sqlite-read-error.js';
import { knownBusy, noteBusy } from './busy-memo.js';
import { uriFilenamesEnabled } from './uri-support.js';
import { detectWalState, sidecarStats, stateOfSidecars, type WalState } from './wal-state.js';
import type { ReadonlyDb, ReadRoute } from './readonly-handle.js';

export type { ReadonlyDb, ReadRoute } from './readonly-handle.js';

/**
 * Options of {@link openReadonly}.
 * @public
 */
export interface OpenReadonlyOptions {
  /** Used to look at sidecars (lstat), make and remove the private copy, and read file bytes. */
  fs: FileSystemPort;
  /**
   * Refuse (reject) before opening unless the path resolves to a regular file (its `lstat`, or `stat` of a link's target,
   * runs with the other looks); the handle then carries the `stats` it took.
   */
  requireFile?: boolean;
  /**
   * The caller's `lstat` of the file's directory, taken as the open starts (null when it failed): used where the opener
   * would look at that directory itself (with `requireFile`, on ports that keep connections), so it is not looked at twice.
   */
  dirLook?: PromiseLike<FileStat | null> | undefined;
}

// immutable: SQLite neither locks nor opens sidecars. readonly_shm: a plain mode=ro open writes
// the -shm (WAL-index recovery, read marks), changing its mtime; opened read-only it still sees every
// committed frame of the -wal (SQLite builds a private index when it cannot trust the shared one).
// Known race: a writer that closes cleanly between the look and this open leaves SQLite to create an
// empty -wal before failing; the retry then reads a private copy, but that 0-byte -wal stays.
const IMMUTABLE = 'mode=ro&immutable=1';
const SIDECARS = 'mode=ro&readonly_shm=1';
// The 16 bytes every SQLite database file starts with: "SQLite format 3\0".
const SQLITE_HEADER = [...Buffer.from('SQLite format 3\0', 'latin1')];

// Absolute, without `.`/`..` segments, doubled or trailing slashes: the kernel resolves it as the string reads.
function plainPath(p: string): boolean {
  return isAbsolute(p) && p.length > 1 && !p.endsWith('/') && normalize(p) === p;
}

/**
 * How long a read-only open in place waits for a lock another connection holds (SQLite's busy timeout; better-sqlite3's
 * default is 5 s). Only the `sidecars` route takes locks (immutable and in-memory reads take none), and there a reader
 * waits only on a connection that runs WAL recovery (milliseconds) or holds the file in exclusive locking mode (for as
 * long as it lives: waiting longer does not help). A purge reads a store a dozen times or more, and with the 5 s wait
 * each read of a locked database waited it out (a scoped `mam purge` seen in the real suite took ~100 s; a locked
 * OpenCode stage here ~55 s). With this bound, and a plan waiting once per busy database (withBusyMemo in the planner),
 * a busy store is answered as such within a few seconds.
 */
export const READ_BUSY_TIMEOUT_MS = 1_000;

function openUri(abs: string, query: string): Database.Database {
  return new Database(`${pathToFileURL(abs).href}?${query}`, { readonly: true, fileMustExist: true, timeout: READ_BUSY_TIMEOUT_MS });
}

// A main file that is not SQLite is never opened in place: SQLite would take page 1 from the -wal beside it and may
// remove that -wal on close. An empty main file is a database whose pages are all in the -wal; a file that cannot be
// read here (a directory, no permission) fails at the open, as it always did, with its own reason.
async function refuseNonSqlite(fs: FileSystemPort, abs: string): Promise<void> {
  const head = await fs.readHead(abs, SQLITE_HEADER.length).catch(() => null);
  if (head !== null && head.length > 0 && !SQLITE_HEADER.every((b, i) => head[i] === b)) {
    throw new Error('file is not a database (its first bytes are not the SQLite header)');
  }
}

async function openIn(fs: FileSystemPort, abs: string, state: WalState): Promise<{ db: Database.Database; via: ReadRoute }> {
  const uri = uriFilenamesEnabled();
  switch (state) {
    case 'clean':
    case 'shmonly':
      return uri ? { db: openUri(abs, IMMUTABLE), via: 'immutable' } : { db: openMemoryImage(await fs.readFile(abs)), via: 'memory-image' };
    case 'leftover':
      await refuseNonSqlite(fs, abs);
      return uri ? { db: openUri(abs, SIDECARS), via: 'sidecars' } : { db: openMemoryImage(await readPrivateCopy(fs, abs, ['-wal'])), via: 'private-copy' };
    case 'walonly':
      return { db: openMemoryImage(await readPrivateCopy(fs, abs, ['-wal'])), via: 'private-copy' };
    case 'journal':
      return { db: openMemoryImage(await readPrivateCopy(fs, abs, ['-journal'])), via: 'private-copy' };
    default: {
      const never: never = state;
      throw new Error(`unknown WAL state ${String(never)}`);
    }
  }
}

// better-sqlite3 opens lazily: read the schema now so a bad file fails here, not at the first query.
function checked(db: Database.Database): Database.Database {
  try {
    db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

// Closing a handle keeps its connection for a later call where the port allows it (see kept-connections.ts).
function handle(fs: FileSystemPort, dbPath: string, lookedAt: number, db: Database.Database, state: WalState, via: ReadRoute, stats: ReadonlyDb['stats'], dir?: FileStat | null): ReadonlyDb {
  let closed = false;
  return {
    db,
    state,
    via,
    stats,
    close: () => {
      if (!closed) parkOrClose(fs, dbPath, db, via === 'immutable' ? stats : undefined, lookedAt, dir);
      closed = true;
      return Promise.resolve();
    },
  };
}

/**
 * Opens a SQLite file for reading without changing its directory: in place when it has no sidecar or both, from a private
 * in-memory copy otherwise, and from the file's bytes when URI filenames are off in this process.
 * @example
 * ```ts
 * const h = await openReadonly('/home/me/.codex/state_5.sqlite', { fs });
 * try { h.db.prepare('SELECT id FROM threads').all(); } finally { await h.close(); }
 * ```
 * @public
 */
export async function openReadonly(dbPath: string, opts: OpenReadonlyOptions): Promise<ReadonlyDb> {
  const { fs } = opts;
  // A database found busy earlier in the same plan (withBusyMemo) is not waited for again.
  const busy = knownBusy(fs, dbPath);
  if (busy !== undefined) throw busy;
  const lookedAt = lookTime(fs);
  const plain = plainPath(dbPath);
  const lookOwn = (): Promise<FileStat> => fs.lstat(dbPath).catch((err: unknown) => { dropKept(fs, dbPath); throw err; });
  // On ports that keep connections the file's directory is looked at with the file: while it and the file look as when
  // the connection was kept, no sidecar appeared or went, and these two looks stand for the four (see takeKeptByDir).
  let dirLook: Promise<FileStat | null> | undefined;
  if (plain && opts.requireFile === true && Number.isFinite(lookedAt)) {
    dirLook = Promise.resolve(opts.dirLook ?? lstatOrNull(fs, dirname(dbPath))).catch(() => null);
  }
  let early: Promise<FileStat> | undefined;
  if (dirLook !== undefined && keptUnderDir(fs, dbPath)) {
    early = lookOwn();
    const file = await early;
    const dir = await dirLook;
    const kept = file.kind === 'file' ? takeKeptByDir(fs, dbPath, dir, file) : null;
    if (kept !== null) return handle(fs, dbPath, lookedAt, kept.db, stateOfSidecars(kept.sidecars), 'immutable', { file, sidecars: kept.sidecars }, dir);
  }
  // The sidecars are looked at while the path is (every look an lstat, all at once). An absolute, normalised path whose
  // own lstat is not a link is its file's place: its sidecars are the names beside it (a linked parent directory leads to
  // the same entries), so no realpath is needed; any other path is resolved and, when that lands elsewhere, looked at again.
  const beside = sidecarStats(fs, dbPath);
  beside.catch(() => undefined);
  const own = plain ? await (early ?? lookOwn()) : null;
  const abs = own !== null && own.kind !== 'symlink' ? dbPath : await fs.realpath(dbPath);
  if (!isAbsolute(abs)) throw new SqliteReadError(dbPath, 'unknown', new Error(`realpath gave a relative path: ${abs}`));
  let stats: ReadonlyDb['stats'];
  let state: WalState;
  if (abs === dbPath) {
    const sidecars = await beside;
    const file = own ?? (opts.requireFile === true ? await fs.lstat(dbPath) : null);
    if (file !== null && opts.requireFile === true) stats = { file, sidecars };
    state = stateOfSidecars(sidecars);
  } else {
    state = await detectWalState(fs, abs);
  }
  if (opts.requireFile === true) {
    const kind = stats?.file.kind ?? (await fs.stat(abs)).kind;
    if (kind !== 'file') throw new SqliteReadError(dbPath, state, new Error(`not a regular file (${kind})`));
  }
  // A connection kept from an earlier call is used when the file and its sidecars look exactly as when it was opened.
  // Any other look (a link now, sidecars that call for another route) closes the one kept for the path.
  const kept = stats !== undefined && (state === 'clean' || state === 'shmonly') ? takeKept(fs, dbPath, stats) : dropKept(fs, dbPath);
  const dir = stats !== undefined && dirLook !== undefined ? await dirLook : undefined;
  if (kept !== null) return handle(fs, dbPath, lookedAt, kept, state, 'immutable', stats, dir);
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { db, via } = await openIn(fs, abs, state);
      return handle(fs, dbPath, lookedAt, checked(db), state, via, stats, stats === undefined ? undefined : dir);
    } catch (err) {
      // A writer may have started or exited (removing its sidecars) between the look and the open.
      const now = await detectWalState(fs, abs);
      if (attempt === 0 && now !== state) {
        state = now;
        stats = undefined;
        continue;
      }
      if (err instanceof SqliteReadError || err instanceof PortError) throw err;
      const failed = new SqliteReadError(dbPath, state, err);
      if (isBusySqliteCode(failed.data['sqliteCode'] as string | undefined)) noteBusy(fs, dbPath, failed);
      throw failed;
    }
  }
}

/**
 * Opens `dbPath` with {@link openReadonly}, runs `fn` on the handle and always closes it; inside a read scope
 * (`withReadScope`) it runs `fn` on the scope's one connection of that path instead, which the scope closes.
 * @public
 */
export async function withReadonlyDb<T>(dbPath: string, opts: OpenReadonlyOptions, fn: (h: ReadonlyDb) => T | Promise<T>): Promise<T> {
  const shared = scopedHandle(opts.fs, dbPath, () => openReadonly(dbPath, opts));
  if (shared !== null) return fn(await shared);
  const h = await openReadonly(dbPath, opts);
  try {
    return await fn(h);
  } finally {
    await h.close();
  }
}
