import { describeError, isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { ProcessPort } from '../ports/process.js';
import type { RowsArtifact } from '../purge/artifact.js';
import { rebuildTreesOnPages, scrubFreePages } from './dead-copies.js';
import { type DeadCopyScan, scanDeadCopies } from './dead-copy-scan.js';
import { dbWriteRefusal } from './db-write-guard.js';
import Database from './driver.js';
import { secureCheckpoint } from './secure-checkpoint.js';
import { closeQuietly, openWalGuard } from './guard-connection.js';
import { detectWalState } from './wal-state.js';

// The one pass every purge that deletes rows from a SQLite store runs after its delete, and the pass a rerun runs when the
// rows are already gone (an earlier purge interrupted after its delete committed): the deleted rows' old copies still in
// the files — the main file under a `-wal` not yet checkpointed, the unused space of pages holding other rows, free pages
// — are found by a byte search placed on pages (src/sqlite/dead-copy-scan.ts) and wiped. Each write step is preceded by
// the write guard's look at the file and its sidecars: nothing is written through a link, and a step can be stopped there.

/** The table name a dead-copies artifact gives (its rows are gone; old copies of them are still in the file's bytes). */
export const DEAD_COPIES_TABLE = '(deleted rows)';
/** The column name a dead-copies artifact gives. */
export const DEAD_COPIES_COLUMN = '(old copies in the file)';

/** How long a wipe waits for another writer to let go. */
const BUSY_TIMEOUT_MS = 5_000;

async function readOrEmpty(fs: FileSystemPort, path: string): Promise<Uint8Array> {
  try {
    return await fs.readFile(path);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return new Uint8Array(0);
    throw err;
  }
}

/**
 * The dead copies of `needles` in a database's main file and `-wal` (see {@link scanDeadCopies}); rejects when a file
 * cannot be read (a missing `-wal` is empty).
 * @public
 */
export async function deadCopiesOf(fs: FileSystemPort, dbPath: string, needles: readonly string[]): Promise<DeadCopyScan> {
  const [main, wal] = await Promise.all([fs.readFile(dbPath), readOrEmpty(fs, `${dbPath}-wal`)]);
  return scanDeadCopies(main, wal, needles);
}

/**
 * The artifact standing for `copies` old copies of a conversation's deleted rows in `db`'s bytes (what a rerun of an
 * interrupted purge finishes): kind `rows` in {@link DEAD_COPIES_TABLE}.
 * @public
 */
export function deadCopiesArtifact(db: string, copies: number): RowsArtifact {
  return { kind: 'rows', db, table: DEAD_COPIES_TABLE, column: DEAD_COPIES_COLUMN, count: copies };
}

/**
 * The dead-copies artifact of `dbPath` when its files hold old copies of `needles` no live row holds; empty when none, or
 * when the files cannot be read (the row lookup reports an unreadable database). Asked only when no row names the id.
 * @public
 */
export async function deadCopyArtifacts(fs: FileSystemPort, dbPath: string, needles: readonly string[]): Promise<RowsArtifact[]> {
  try {
    const scan = await deadCopiesOf(fs, dbPath, needles);
    return scan.copies > 0 ? [deadCopiesArtifact(dbPath, scan.copies)] : [];
  } catch {
    return [];
  }
}

/**
 * What {@link wipeDeadCopies} did: the old copies found before and left after, the b-trees rebuilt, the free pages
 * zeroed, and a line per thing it could not do.
 * @public
 */
export interface DeadCopyWipe {
  /** Old copies found before the wipe. */
  before: number;
  /** Old copies still in the files after it. */
  after: number;
  /** The tables and indexes rebuilt. */
  rebuilt: string[];
  /** How many free pages were zeroed. */
  freed: number;
  /** Why copies stay, one line each (empty when none stays). */
  notes: string[];
}

/**
 * Wipes the old copies of `needles` from a database's files: when any is found, and no other process holds the database
 * and the write guard allows it, a `secure_delete` connection checkpoints the `-wal` into the main file (truncating it),
 * rebuilds the b-trees whose pages hold a copy in their unused space ({@link rebuildTreesOnPages}, triggers suspended),
 * zeroes the free pages ({@link scrubFreePages}) when a free page holds one, and checkpoints again; the files are
 * searched again after. Sidecars a writer left (`-wal` and `-shm`) are kept, emptied. `label` names the agent's writer in notes. Never throws: what stays is a line in `notes`.
 * @public
 */
export async function wipeDeadCopies(fs: FileSystemPort, proc: ProcessPort, dbPath: string, needles: readonly string[], label: string): Promise<DeadCopyWipe> {
  const out: DeadCopyWipe = { before: 0, after: 0, rebuilt: [], freed: 0, notes: [] };
  // A page count, as a person reads it: the pages of the file holding a copy, and the superseded images.
  const stay = (scan: DeadCopyScan | null, cause: string): DeadCopyWipe => {
    out.after = scan?.copies ?? out.before;
    const what = scan === null ? 'some pages may' : `${scan.pages.length + scan.stale} page(s)`;
    out.notes.push(`${dbPath}: ${what} still hold old copies of the purged rows (${label}): ${cause}`);
    return out;
  };
  try {
    const first = await deadCopiesOf(fs, dbPath, needles).catch((err: unknown) => {
      if (isPortError(err, 'NotFound')) return null;
      throw err;
    });
    // No database here: nothing to wipe.
    if (first === null) return out;
    out.before = first.copies;
    if (first.copies === 0) return out;
    const self = proc.selfPid();
    const others = [...new Set((await proc.holders([dbPath, `${dbPath}-wal`, `${dbPath}-shm`])).map((h) => h.pid))].filter((p) => p !== self);
    if (others.length > 0) return stay(first, `not rewritten while another process holds the database (pid ${others.join(', ')})`);
    const guard = async (): Promise<string | null> => dbWriteRefusal(fs, dbPath);
    let why = await guard();
    if (why !== null) return stay(first, why);
    // Sidecars a writer left stay (emptied by the checkpoint): a read-only connection outlives the writing one, whose close
    // would otherwise remove them.
    const kept = (await detectWalState(fs, dbPath)) === 'leftover';
    const db = new Database(dbPath, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    const guardConn = kept ? openWalGuard(dbPath) : undefined;
    let skipped: string[] = [];
    try {
      db.pragma('secure_delete = ON');
      db.pragma('foreign_keys = OFF');
      // The `-wal` first: the pages the search places are then those of the main file, and no superseded image stays.
      const busy = secureCheckpoint(db, dbPath);
      if (busy.length > 0) return stay(first, busy.join('; '));
      const scan = await deadCopiesOf(fs, dbPath, needles);
      if ((why = await guard()) !== null) return stay(scan, why);
      const owned = new Set(scan.pages.length === 0 ? [] : (db.prepare(`SELECT DISTINCT pageno FROM dbstat WHERE pageno IN (${scan.pages.join(',')})`).pluck().all() as number[]));
      // A full-text table's shadow tables refuse writes in SQLite's defensive mode; their rows are put back byte for byte.
      db.unsafeMode(true);
      let result;
      try {
        result = rebuildTreesOnPages(db, scan.pages.filter((p) => owned.has(p)), { suspendTriggers: true });
      } finally {
        db.unsafeMode(false);
      }
      out.rebuilt = result.rebuilt;
      skipped = result.skipped;
      if (scan.pages.some((p) => !owned.has(p))) {
        if ((why = await guard()) !== null) return stay(scan, why);
        out.freed = scrubFreePages(db);
      }
      if ((why = await guard()) !== null) return stay(scan, why);
      const late = secureCheckpoint(db, dbPath);
      if (late.length > 0) skipped.push(...late);
    } finally {
      db.close();
      closeQuietly(guardConn);
    }
    const left = await deadCopiesOf(fs, dbPath, needles);
    if (left.copies > 0) return stay(left, skipped.length > 0 ? `not rebuilt: ${skipped.join('; ')}` : 'not reached by a rebuild');
    return out;
  } catch (err) {
    return stay(null, `the pages holding them could not be rewritten: ${describeError(err)}`);
  }
}
