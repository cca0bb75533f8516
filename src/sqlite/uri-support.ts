import Database, { SqliteBindingError } from './driver.js';
import { enableSqliteUri } from '../node/sqlite-uri.js';

// Runs when this module is imported, before this library opens any database.
enableSqliteUri();

let enabled: boolean | undefined;

// A URI that names a private in-memory database when URI filenames are on; with them off it
// is a relative file name, which a read-only open cannot create.
const PROBE = 'file:mam-sqlite-uri-probe?mode=memory';

function probe(): boolean {
  enableSqliteUri();
  let db: Database.Database;
  try {
    db = new Database(PROBE, { readonly: true });
  } catch (err) {
    // A missing binding says nothing of URIs: not remembered, so a rebuilt binding is probed again.
    if (err instanceof SqliteBindingError) throw err;
    return false;
  }
  try {
    // A literal file of that name (URIs off) would show a path here; the memory database shows ''.
    const rows = db.pragma('database_list') as Array<{ file: string }>;
    return rows.every((r) => r.file === '');
  } finally {
    db.close();
  }
}

/**
 * Whether better-sqlite3 honours `file:` URIs in this process (false when some code opened a database before `SQLITE_USE_URI` was set); probed once.
 * @internal
 */
export function uriFilenamesEnabled(): boolean {
  enabled ??= probe();
  return enabled;
}
