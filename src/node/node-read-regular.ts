// From node:fs/promises, not node:fs: an ES import of node:fs loads Node's stream stack (see regular-or-absent.ts).
import { constants as fsConstants } from 'node:fs/promises';
import * as fsp from 'node:fs/promises';
import { PortError } from '../errors.js';

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer (a FIFO named like a
// transcript or the registry would otherwise hang the reader forever); it changes nothing for a regular file.
const READ_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK;
// O_NOFOLLOW: a link as the last component fails the open (ELOOP on Linux, EMLINK on some BSDs) instead of being followed.
const NO_LINK_READ_FLAGS = READ_FLAGS | fsConstants.O_NOFOLLOW;

/** The `Linked` refusal of a file reached through a link, or one that has other hard links. */
export function linkedError(op: string, path: string, what: string, cause?: unknown): PortError {
  return new PortError('Linked', op, `${what}, refused (never read or written through a link): '${path}'`, { path }, cause === undefined ? undefined : { cause });
}

/** True for the errno an `O_NOFOLLOW` open gives on a symbolic link. */
export function isNoFollowErrno(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? (err as { code: unknown }).code : undefined;
  return code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE';
}

/** Throws unless the descriptor's stat is a regular file (with `noLink`, also one with a single link). */
export function checkOwnStat(op: string, path: string, st: { isDirectory(): boolean; isFile(): boolean; nlink: number }, noLink: boolean, verb: string): void {
  if (st.isDirectory()) throw new PortError('IsADirectory', op, `EISDIR: illegal operation on a directory, ${verb} '${path}'`, { path, errno: 'EISDIR' });
  if (!st.isFile()) throw new PortError('NotRegularFile', op, `not a regular file (a FIFO, socket or device is never ${verb === 'read' ? 'read' : 'written'}): '${path}'`, { path });
  if (noLink && st.nlink !== 1) throw linkedError(op, path, `the file has ${st.nlink} hard links`);
}

/**
 * Opens `path` for reading only when what it names is a regular file: a directory is `IsADirectory`, a FIFO, socket or
 * device `NotRegularFile` (checked on the opened descriptor, so a swap after a type check cannot slip one in); with
 * `noLink`, a symbolic link (never followed) or a file with other hard links is `Linked`.
 */
export async function openRegular(op: string, path: string, noLink = false): Promise<fsp.FileHandle> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, noLink ? NO_LINK_READ_FLAGS : READ_FLAGS);
  } catch (err) {
    if (noLink && isNoFollowErrno(err)) throw linkedError(op, path, 'the path is a symbolic link', err);
    throw err;
  }
  try {
    checkOwnStat(op, path, await handle.stat(), noLink, 'read');
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** The whole of a regular file, read from the descriptor {@link openRegular} checked. */
export async function readRegular(op: string, path: string, noLink = false): Promise<Buffer> {
  const handle = await openRegular(op, path, noLink);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
