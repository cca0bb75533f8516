// `@mam/core/sqlite`: Agent databases read in every WAL state without touching a sidecar, and the write guard.
// The whole part; its documented names are also exported by the package root.

// sqlite
export { dbRowsNaming, type DbRowsNamingOptions, type IdTable } from '../sqlite/db-rows-naming.js';
export { dbWriteRefusal } from '../sqlite/db-write-guard.js';
export { type OpenReadonlyOptions, type ReadRoute } from '../sqlite/open-readonly.js';
export { openReadonly, type ReadonlyDb, withReadonlyDb } from '../sqlite/readonly-db.js';
export { type ReadScopeStats, withReadScope } from '../sqlite/read-scope.js';
export { type SqliteDatabase, type SqliteStatement } from '../sqlite/sqlite-database.js';
export { SqliteReadError } from '../sqlite/sqlite-read-error.js';
export { SqliteBindingError } from '../sqlite/driver.js';
export { detectWalState, type WalState } from '../sqlite/wal-state.js';
