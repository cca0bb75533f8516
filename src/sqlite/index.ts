export { detectWalState, type WalState } from './wal-state.js';
export { type ReadRoute, type OpenReadonlyOptions } from './open-readonly.js';
export { openReadonly, withReadonlyDb, type ReadonlyDb } from './readonly-db.js';
export type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
export { quoteIdent, tableNames, tableColumns, userVersion } from './schema.js';
export { dbRowsNaming, type IdTable, type DbRowsNamingOptions } from './db-rows-naming.js';
export { SqliteReadError } from './sqlite-read-error.js';
export { dbWriteRefusal } from './db-write-guard.js';
