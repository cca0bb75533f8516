// A real SQLite writer for the WAL-state builders (test/helpers/sqlite-wal-states.ts).
// argv[2] or else MAM_TEST_CHILD_JSON = JSON { db, sql: string[], mode: 'close' | 'hold' | 'journal' } (see sqlite-wal-states.ts)
//   close:   WAL mode, run sql, close cleanly (checkpoint; the sidecars go), exit 0.
//   hold:    WAL mode with wal_autocheckpoint=0, run sql (each statement commits), print "ready",
//            stay alive holding the connection until killed: committed rows live only in -wal.
//   journal: rollback-journal mode, run sql (committed), then start a transaction that deletes every
//            row and spills pages into the main file, print "ready" and wait to be killed: a hot journal.
import Database from 'better-sqlite3';

const { db: path, sql, mode } = JSON.parse(process.argv[2] ?? process.env.MAM_TEST_CHILD_JSON);
const db = new Database(path);
if (mode === 'journal') db.pragma('journal_mode = DELETE');
else {
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
}
for (const statement of sql) db.exec(statement);

if (mode === 'close') {
  db.close();
  process.exit(0);
}
if (mode === 'journal') {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
  db.pragma('cache_size = 2');
  db.exec('BEGIN');
  for (const t of tables) db.exec(`DELETE FROM "${t.replaceAll('"', '""')}"`);
  db.exec('CREATE TABLE spill_filler (x TEXT)');
  const ins = db.prepare('INSERT INTO spill_filler VALUES (?)');
  for (let i = 0; i < 400; i += 1) ins.run('y'.repeat(3000));
}
process.stdout.write('ready\n');
// Never outlive the test run: stop when the parent goes away or after two minutes.
process.stdin.on('end', () => process.kill(process.pid, 'SIGKILL'));
process.stdin.resume();
setTimeout(() => process.kill(process.pid, 'SIGKILL'), 120_000);
