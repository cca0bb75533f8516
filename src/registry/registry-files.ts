import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { ownFilesRefusal } from '../sqlite/db-write-guard.js';
import { RegistryCorruptError } from './registry-corrupt-error.js';
import { RegistryFileRefusedError } from './registry-file-refused-error.js';
import type { RegistryPaths } from './registry-paths.js';

// The registry's files are the registry's: `.mam/` a real directory, every name in it an own regular file (one link).

/** The fault of a YAML path that is not a regular file (a FIFO, socket, device or directory): never opened for reading. */
export function yamlNotAFile(yaml: string, cause?: unknown): RegistryCorruptError {
  return new RegistryCorruptError(yaml, [{ problem: 'not-a-file', message: 'the registry path is not a regular file (a FIFO, socket, device or directory)' }], cause === undefined ? undefined : { cause });
}

/**
 * Whether `.mam/` is there: `absent`, or `present` as a real directory; a link (even to a directory) or a file there is
 * a {@link RegistryFileRefusedError}, and a failed look rejects with its {@link PortError}.
 */
export async function registryDirState(fs: FileSystemPort, dir: string): Promise<'present' | 'absent'> {
  let kind;
  try {
    kind = (await fs.lstat(dir)).kind;
  } catch (err) {
    if (isPortError(err, 'NotFound')) return 'absent';
    throw err;
  }
  if (kind === 'symlink') throw new RegistryFileRefusedError(dir, 'symlink');
  if (kind !== 'dir') throw new RegistryFileRefusedError(dir, 'not-a-directory');
  return 'present';
}

/**
 * Rejects unless each of `paths` is absent or a regular file with one link: a {@link RegistryFileRefusedError} naming
 * the first that is not (the YAML as a FIFO or a directory stays the `RegistryCorruptError` `not-a-file` it was).
 */
export async function checkOwnNames(fs: FileSystemPort, paths: readonly string[], yaml: string): Promise<void> {
  const refusal = await ownFilesRefusal(fs, paths, () => true);
  if (refusal === null) return;
  if (refusal.path === yaml && (refusal.problem === 'directory' || refusal.problem === 'not-regular')) throw yamlNotAFile(yaml);
  throw new RegistryFileRefusedError(refusal.path, refusal.problem, { detail: refusal.problem === 'unchecked' ? refusal.message : '' });
}

// The 16 bytes every SQLite database file starts with: never a lock file's (always empty) nor a sidecar's.
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Rejects with a {@link RegistryFileRefusedError} `foreign-database` when one of `paths` (names that are never a database
 * of their own: the lock, a journal, a WAL, a shared-memory file) holds a SQLite database; call it after
 * {@link checkOwnNames} (it reads the first 16 bytes of each file present).
 */
export async function refuseDatabasesAt(fs: FileSystemPort, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const head = await fs.readHead(path, SQLITE_HEADER.length).catch((err: unknown) => {
      if (isPortError(err, 'NotFound')) return null;
      throw err;
    });
    if (head !== null && Buffer.compare(Buffer.from(head), SQLITE_HEADER) === 0) {
      throw new RegistryFileRefusedError(path, 'foreign-database', { detail: 'a SQLite database where none belongs' });
    }
  }
}

/**
 * The YAML's bytes, or null when it (or `.mam/`) is absent: read inside a real `.mam/`, without following a link and
 * only from a file of its own (checked on the descriptor); a link is a {@link RegistryFileRefusedError}.
 */
export async function readRegistryYaml(fs: FileSystemPort, paths: RegistryPaths): Promise<Uint8Array | null> {
  if ((await registryDirState(fs, paths.dir)) === 'absent') return null;
  try {
    return await fs.readFile(paths.yaml, { noLink: true });
  } catch (err) {
    if (isPortError(err, 'NotFound')) return null;
    // A FIFO in place of the YAML would block a plain read forever (and an update with it, holding the lock).
    if (isPortError(err, 'NotRegularFile') || isPortError(err, 'IsADirectory')) throw yamlNotAFile(paths.yaml, err);
    if (isPortError(err, 'Linked')) {
      const kind = await fs.lstat(paths.yaml).then((st) => st.kind, () => null);
      throw new RegistryFileRefusedError(paths.yaml, kind === 'symlink' ? 'symlink' : 'hard-link', { cause: err });
    }
    throw err;
  }
}
