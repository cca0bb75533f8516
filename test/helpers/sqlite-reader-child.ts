// Reads databases in a fresh process and prints what it saw as one JSON line.
// MAM_TEST_CHILD_JSON = JSON { early: boolean, dbs: [{ path, id }] } (see sqlite-run-child.ts)
// early: a module opens a better-sqlite3 Database BEFORE src/sqlite is imported, so the addon
// reads SQLITE_USE_URI before the library could set it (URI filenames stay off in this process).
import Database from 'better-sqlite3';
import { strs } from './artifact-strings.js';

interface Job {
  early: boolean;
  dbs: Array<{ path: string; id: string }>;
}

const job = JSON.parse(process.env['MAM_TEST_CHILD_JSON'] ?? '{}') as Job;
let held: Database.Database | undefined;
if (job.early) held = new Database(':memory:');

const sqlite = await import('../../src/sqlite/index.js');
const { uriFilenamesEnabled } = await import('../../src/sqlite/uri-support.js');
const { NodeFileSystem } = await import('../../src/node/node-fs.js');
const fs = new NodeFileSystem();

const results = [];
for (const { path, id } of job.dbs) {
  const h = await sqlite.openReadonly(path, { fs });
  let ids: unknown[];
  try {
    ids = h.db.prepare('SELECT id FROM threads ORDER BY id').pluck().all();
  } finally {
    await h.close();
  }
  const naming = strs(await sqlite.dbRowsNaming(path, id, ['thread_id'], ['threads'], { fs }));
  const tables = await sqlite.withReadonlyDb(path, { fs }, ({ db }) => sqlite.tableNames(db));
  results.push({ path, state: h.state, via: h.via, ids, naming, tables });
}
held?.close();
process.stdout.write(`${JSON.stringify({ uri: uriFilenamesEnabled(), results })}\n`);
