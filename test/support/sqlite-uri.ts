// vitest setupFile: the library turns on SQLite URI filenames when it is imported (better-sqlite3 reads
// SQLITE_USE_URI once, at the first open of the process). A worker that runs several files one after another (isolate:
// false) must not let a file that opens a database before importing the library turn URIs off for the files after it.
import { enableSqliteUri } from '../../src/node/sqlite-uri.js';

enableSqliteUri();
