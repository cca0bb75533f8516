import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { checkFsDbPath } from '../validation/low-level-args.js';

/**
 * What lies beside a SQLite file, which decides how it can be read without touching its directory:
 * `clean` no sidecar; `leftover` both `-wal` and `-shm` (a crashed, copied or live writer);
 * `walonly` a `-wal` without `-shm`; `shmonly` a `-shm` without `-wal`; `journal` a rollback `-journal`.
 * @public
 */
export type WalState = 'clean' | 'leftover' | 'walonly' | 'shmonly' | 'journal';

async function present(fs: FileSystemPort, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (err) {
    if (isPortError(err, 'NotFound')) return false;
    throw err;
  }
}

/**
 * The {@link WalState} from the sidecars alone, for a caller that already knows the file is there (three `lstat`s).
 * @internal
 */
export async function sidecarState(fs: FileSystemPort, dbPath: string): Promise<WalState> {
  const [wal, shm, journal] = await Promise.all([present(fs, `${dbPath}-wal`), present(fs, `${dbPath}-shm`), present(fs, `${dbPath}-journal`)]);
  if (wal) return shm ? 'leftover' : 'walonly';
  if (journal) return 'journal';
  return shm ? 'shmonly' : 'clean';
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
