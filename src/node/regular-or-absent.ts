import { lstatSync } from 'node:fs';
import { PortError } from '../errors.js';

/**
 * Throws a {@link PortError} `NotRegularFile` when `path` exists and is not a regular file (a FIFO, socket, device,
 * directory or link), so a synchronous open of it (SQLite's) can never block on a FIFO; absent is fine (it is created).
 */
export function assertRegularOrAbsent(op: string, path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (!st.isFile()) throw new PortError('NotRegularFile', op, `not a regular file (never opened): '${path}'`, { path });
}
