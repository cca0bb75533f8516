import Database from './driver.js';

/**
 * A read-only connection that holds a database's WAL open while a writer closes, so the writer's close is not the last one
 * and nothing checkpoints or removes the sidecars (a read-only close never checkpoints); undefined when it cannot open.
 * @public
 */
export function openWalGuard(path: string): Database.Database | undefined {
  try {
    const guard = new Database(path, { readonly: true, fileMustExist: true });
    guard.prepare('SELECT count(*) FROM sqlite_schema').pluck().get();
    return guard;
  } catch {
    return undefined;
  }
}

/**
 * Closes a connection, ignoring a failed close (what it wrote, or did not, was settled before the close).
 * @public
 */
export function closeQuietly(db: Database.Database | undefined): void {
  try {
    db?.close();
  } catch {
    // Nothing to report: the rows were deleted (or not) before the close.
  }
}
