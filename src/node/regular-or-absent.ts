import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { PortError } from '../errors.js';

// node:fs through `require`: importing it as an ES module makes Node build its facade, whose getters load Node's whole
// stream stack (~20 internal modules) when @mam/core is imported.
const { lstatSync, realpathSync } = createRequire(import.meta.url)('node:fs') as typeof Fs;

/**
 * Throws a {@link PortError} `NotRegularFile` when `path` exists and is not a regular file (a FIFO, socket, device,
 * directory or link), so a synchronous open of it (SQLite's) can never block on a FIFO; absent is fine (it is created).
 * With `ownFile`, a link (symbolic, or a file with other hard links) is `Linked` instead: SQLite follows a symbolic link
 * (it resolves the path itself) and writes through a hard one.
 */
export function assertRegularOrAbsent(op: string, path: string, ownFile = false): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (ownFile && st.isSymbolicLink()) throw new PortError('Linked', op, `a symbolic link, never opened: '${path}'`, { path });
  if (!st.isFile()) throw new PortError('NotRegularFile', op, `not a regular file (never opened): '${path}'`, { path });
  if (ownFile && st.nlink > 1) throw new PortError('Linked', op, `a file with ${st.nlink} hard links, never written: '${path}'`, { path });
}

/**
 * Throws a {@link PortError} `Changed` unless the main database of `db` (as SQLite resolved it: `PRAGMA database_list`)
 * is `path` in its directory's real place, i.e. SQLite followed no link to reach it (it resolves every link of a path
 * before opening, so a link swapped in after a check would show here). Nothing is written by the check.
 */
export function assertOpenedInPlace(op: string, path: string, db: { pragma(source: string): unknown }): void {
  const rows = db.pragma('database_list') as Array<{ name?: unknown; file?: unknown }>;
  const file = rows.find((r) => r.name === 'main')?.file;
  let expected: string;
  try {
    expected = join(realpathSync(dirname(path)), basename(path));
  } catch (err) {
    throw new PortError('Changed', op, `the directory of '${path}' could not be resolved after the open`, { path }, { cause: err });
  }
  if (file !== expected) throw new PortError('Changed', op, `SQLite opened '${String(file)}' for '${path}' (a link was followed): never written`, { path });
}
