// What RecordingFileSystem records (its own file, so the directory handle it hands out can name it without importing it).

/**
 * The operations {@link RecordingFileSystem} records as mutations.
 * @public
 */
export type MutationOp = 'writeFile' | 'rename' | 'unlink' | 'rmdir' | 'mkdir' | 'mkdtemp' | 'copyFile' | 'symlink';

/**
 * One attempted mutation: `to` is the destination of a rename or copy, or the target text of a symlink.
 * @public
 */
export interface RecordedMutation {
  /** The port method called. */
  op: MutationOp;
  /** The path mutated (for `mkdtemp`, the prefix until the call succeeds, then the directory created). */
  path: string;
  /** The destination of a rename or copy, or the target text of a symlink. */
  to?: string;
  /** The errno injected instead of running the call, when a fault was injected. */
  fault?: FaultErrno;
}

/**
 * The faults {@link RecordingFileSystem} can inject.
 * @public
 */
export type FaultErrno = 'EACCES' | 'EBUSY' | 'ENOSPC' | 'EIO' | 'EROFS';
