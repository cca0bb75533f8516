// Pins what better-sqlite3 12 does with `file:` URIs, in a fresh process.
// MAM_TEST_CHILD_JSON = JSON { setEnvFirst: boolean, uri: string } (see sqlite-run-child.ts): sets SQLITE_USE_URI=1 (or not) before the
// first open, opens `uri` read-only and prints { ok, code, rows } as one JSON line.
import Database from 'better-sqlite3';

const { setEnvFirst, uri } = JSON.parse(process.env.MAM_TEST_CHILD_JSON);
if (setEnvFirst) process.env.SQLITE_USE_URI = '1';
try {
  const db = new Database(uri, { readonly: true, fileMustExist: true });
  const rows = db.prepare('SELECT count(*) FROM threads').pluck().get();
  db.close();
  process.stdout.write(`${JSON.stringify({ ok: true, rows })}\n`);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ok: false, code: err.code })}\n`);
}
