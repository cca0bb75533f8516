import type { FileStat, FileSystemPort } from '../ports/fs.js';
import { checkFsDbPath } from '../validation/low-level-args.js';
import { lstatOrNull } from '../paths/lstat-or-null.js';

/**
 * What lies beside a SQLite file, which decides how it can be read without touching its directory:
 * `clean` no sidecar; `leftover` both `-wal` and `-shm` (a crashed, copied or live writer);
 * `walonly` a `-wal` without `-shm`; `shmonly` a `-shm` without `-wal`; `journal` a rollback `-journal`.
 * @public
 */
export type WalState = 'clean' | 'leftover' | 'walonly' | 'shmonly' | 'journal';


/**
 * The `lstat` of each sidecar name beside `dbPath` (`-wal`, `-shm`, `-journal`, all at once), null where there is none.
 * @internal
 */
export function sidecarStats(fs: FileSystemPort, dbPath: string): Promise<[FileStat | null, FileStat | null, FileStat | null]> {
  return Promise.all([lstatOrNull(fs, `${dbPath}-wal`), lstatOrNull(fs, `${dbPath}-shm`), lstatOrNull(fs, `${dbPath}-journal`)]);
}

/**
 * The {@link WalState} that sidecar stats (see {@link sidecarStats}) name.
 * @internal
 */
export function stateOfSidecars([wal, shm, journal]: readonly [FileStat | null, FileStat | null, FileStat | null]): WalState {
  if (wal !== null) return shm !== null ? 'leftover' : 'walonly';
  if (journal !== null) return 'journal';
  return shm !== null ? 'shmonly' : 'clean';
}

/**
 * The {@link WalState} from the sidecars alone, for a caller that already knows the file is there (three `lstat`s).
 * @internal
 */
export async function sidecarState(fs: FileSystemPort, dbPath: string): Promise<WalState> {
  return stateOfSidecars(await sidecarStats(fs, dbPath));
}

/**
 * Looks (with `lstat` only, never a mutation) at the sidecars beside `dbPath` and names its {@link WalState}; rejects with a `NotFound` PortError when the file itself is missing.
 * @public
 */
export async function detectWalState(fs: FileSystemPort, dbPath: string): Promise<WalState> {
  checkFsDbPath([fs, dbPath]);
  // The sidecars are looked at while the file is (one wait, not two); the file's own failure is the one reported.
  const sidecars = sidecarState(fs, dbPath);
  sidecars.catch(() => undefined);
  await fs.lstat(dbPath);
  return sidecars;
}
