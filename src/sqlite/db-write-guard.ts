import { isPortError } from '../errors.js';
import type { FileKind, FileSystemPort } from '../ports/fs.js';
import { checkFsDbPath } from '../validation/low-level-args.js';
import { releaseKept } from './kept-connections.js';

/** The files SQLite writes through when a connection changes a database: the file and its sidecars. */
export const DB_FILE_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const;

/** Why one name must not be written: a link, another kind of file, other hard links, or a look that failed. */
export type OwnFileProblem = 'symlink' | 'directory' | 'not-regular' | 'hard-link' | 'unchecked';

/** One name that must not be written, with why, in words a person reads. */
export interface OwnFileRefusal {
  /** The path refused. */
  path: string;
  /** Why. */
  problem: OwnFileProblem;
  /** One sentence naming the path and the problem. */
  message: string;
}

/** The refusal of a name whose lstat says it is not a regular file of its own (null when it is one). */
export function ownFileRefusal(path: string, st: { kind: FileKind; nlink: number }): OwnFileRefusal | null {
  if (st.kind === 'symlink') return { path, problem: 'symlink', message: `${path} is a symbolic link: refusing to write through it` };
  if (st.kind === 'dir') return { path, problem: 'directory', message: `${path} is a directory, not a regular file: refusing to write to it` };
  if (st.kind !== 'file') return { path, problem: 'not-regular', message: `${path} is not a regular file: refusing to write to it` };
  if (st.nlink > 1) return { path, problem: 'hard-link', message: `${path} has ${st.nlink} hard links: a write would change another file too` };
  return null;
}

/**
 * The first of `paths` that must not be written (a link, not a regular file, other hard links, or an lstat that failed
 * for another reason than its absence), or null; a missing name is fine when `mayBeMissing` says so.
 */
export async function ownFilesRefusal(fs: FileSystemPort, paths: readonly string[], mayBeMissing: (path: string) => boolean): Promise<OwnFileRefusal | null> {
  for (const path of paths) {
    let st;
    try {
      st = await fs.lstat(path);
    } catch (err) {
      if (mayBeMissing(path) && isPortError(err, 'NotFound')) continue;
      return { path, problem: 'unchecked', message: `${path} could not be checked before writing (${err instanceof Error ? err.message : String(err)})` };
    }
    const refusal = ownFileRefusal(path, st);
    if (refusal !== null) return refusal;
  }
  return null;
}

/**
 * Why a database must not be written (its file or a sidecar is a link, not a regular file, or has other hard links: a
 * write would reach another file), or null when a write stays in this database's own files. Absent sidecars are fine.
 * Every read-only connection kept on `fs` between calls is closed first.
 * @public
 */
export async function dbWriteRefusal(fs: FileSystemPort, dbPath: string): Promise<string | null> {
  checkFsDbPath([fs, dbPath]);
  // No connection of this process kept from an earlier read outlives what the write is about to change.
  releaseKept(fs);
  const refusal = await ownFilesRefusal(fs, DB_FILE_SUFFIXES.map((s) => `${dbPath}${s}`), (p) => p !== dbPath);
  return refusal?.message ?? null;
}
