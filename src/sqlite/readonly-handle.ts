// An open read-only database as the opener hands it out (its own file, so the read scope and the probe memory can name
// it without importing the opener).
import type Database from './driver.js';
import type { FileStat } from '../ports/fs.js';
import type { WalState } from './wal-state.js';

/**
 * How a database was read: `immutable` in place with nothing created, `sidecars` in place through both existing sidecars,
 * `private-copy` from a temp copy loaded into memory, `memory-image` from the file's bytes loaded into memory.
 * @public
 */
export type ReadRoute = 'immutable' | 'sidecars' | 'private-copy' | 'memory-image';

/**
 * An open read-only database; `close()` must be called (see {@link withReadonlyDb}).
 * @public
 */
export interface ReadonlyDb {
  /** The better-sqlite3 connection (read-only, or an in-memory image). */
  readonly db: Database.Database;
  /** The sidecar state found beside the file. */
  readonly state: WalState;
  /** How the file was read. */
  readonly via: ReadRoute;
  /** Closes the connection; calling it again does nothing. */
  close(): Promise<void>;
  /**
   * The `lstat`s of the file and its three sidecars taken before the open (device, inode, size, mtime; null where absent),
   * with `requireFile`, when the path itself is no link (the file's own place) and its state was not looked at again;
   * undefined otherwise.
   */
  readonly stats?: { file: FileStat; sidecars: readonly [FileStat | null, FileStat | null, FileStat | null] } | undefined;
}
