import { constants as fsConstants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { PortError } from '../errors.js';

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer (a FIFO named like a
// transcript or the registry would otherwise hang the reader forever); it changes nothing for a regular file.
const READ_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK;

/**
 * Opens `path` for reading only when what it names is a regular file: a directory is `IsADirectory`, a FIFO, socket or
 * device `NotRegularFile` (checked on the opened descriptor, so a swap after a type check cannot slip one in).
 */
export async function openRegular(op: string, path: string): Promise<fsp.FileHandle> {
  const handle = await fsp.open(path, READ_FLAGS);
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new PortError('IsADirectory', op, `EISDIR: illegal operation on a directory, read '${path}'`, { path, errno: 'EISDIR' });
    if (!st.isFile()) throw new PortError('NotRegularFile', op, `not a regular file (a FIFO, socket or device is never read): '${path}'`, { path });
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** The whole of a regular file, read from the descriptor {@link openRegular} checked. */
export async function readRegular(op: string, path: string): Promise<Buffer> {
  const handle = await openRegular(op, path);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
