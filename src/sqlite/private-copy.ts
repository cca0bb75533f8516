import { join } from 'node:path';
import Database from './driver.js';
import type { FileSystemPort } from '../ports/fs.js';

async function removePrivateDir(fs: FileSystemPort, dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir)) await fs.unlink(join(dir, entry.name));
  await fs.rmdir(dir);
}

/**
 * Copies a database and the given sidecars (`-wal`, `-journal`) into a private temp dir, reads the copy there
 * (SQLite may rebuild the WAL index or roll back a hot journal, in the copy only) and returns its image; the copy is deleted.
 * @internal
 */
export async function readPrivateCopy(fs: FileSystemPort, abs: string, sidecars: readonly string[]): Promise<Buffer> {
  const dir = await fs.mkdtemp(join(fs.tmpdir(), 'mam-sqlite-'));
  try {
    const copy = join(dir, 'copy.db');
    // Sidecars first: a checkpoint racing the copy then leaves the main copy newer, never older.
    for (const suffix of sidecars) await fs.copyFile(abs + suffix, copy + suffix);
    await fs.copyFile(abs, copy);
    // Rolling back a hot journal needs a writable connection; it is our copy, never the agent's file.
    const db = new Database(copy, { readonly: !sidecars.includes('-journal'), fileMustExist: true });
    try {
      return db.serialize();
    } finally {
      db.close();
    }
  } finally {
    await removePrivateDir(fs, dir);
  }
}
