import type { Dirent, Stats } from 'node:fs';
import { describeError, PortError, toPortError } from '../errors.js';
import type { FileKind, FileStat } from '../ports/fs.js';

/** What a stat or a directory entry says a path is (a link is `symlink` only when not followed). */
export function kindOf(s: Stats | Dirent): FileKind {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isDirectory()) return 'dir';
  if (s.isFile()) return 'file';
  return 'other';
}

/** The port's {@link FileStat} of a Node `Stats`. */
export function toFileStat(s: Stats): FileStat {
  return { kind: kindOf(s), size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, mode: s.mode, uid: s.uid, dev: s.dev, ino: s.ino, nlink: s.nlink };
}

/** The errno code (`ENOENT`, …) of a thrown value, when it has one. */
export function errnoOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

/** The {@link PortError} of a Node failure; a bad argument (a NUL byte, a wrong type: ERR_INVALID_ARG_*, no errno) is `InvalidArgument`. */
export function fsError(err: unknown, op: string, path: string): PortError {
  const errno = errnoOf(err);
  if (errno?.startsWith('ERR_INVALID_ARG') === true) {
    const message = describeError(err);
    return new PortError('InvalidArgument', op, message, { path, errno }, { cause: err });
  }
  return toPortError(err, op, path);
}
