// A fake `opencode` executable for the opencode adapter's tests: `debug paths`, `session delete <id>` (2.x: removes the
// session and its child sessions from session_v2 and message_v2, leaving the 1.x tables, like the real 2.x CLI), and a
// long-running mode (`serve --service`, or anything else) that holds MAM_TEST_HOLD open and prints `ready`.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface FakeOpencodeOptions {
  /** Every invocation appends its argv (JSON) here. */
  spyLog: string;
  /** `db` line of `debug paths` (default `<data>/opencode.db`); null prints no `db` line (1.x). */
  db?: string | null;
  /** Exit code of `debug paths` (default 0). */
  debugPathsExit?: number;
  /** Exit code of `session delete` (default 0); non-zero deletes nothing. */
  deleteExit?: number;
  /** `session delete` exits 0 without deleting anything. */
  deleteNoop?: boolean;
}

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

function script(o: FakeOpencodeOptions): string {
  const cfg = JSON.stringify({ spy: o.spyLog, db: o.db, debugExit: o.debugPathsExit ?? 0, deleteExit: o.deleteExit ?? 0, noop: o.deleteNoop ?? false, sqlite: BETTER_SQLITE3 });
  return `#!${process.execPath}
const cfg = ${cfg};
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
fs.appendFileSync(cfg.spy, JSON.stringify(args) + '\\n');
const env = process.env;
const data = path.join(env.XDG_DATA_HOME || path.join(env.HOME || '/nonexistent', '.local', 'share'), 'opencode');
const dbPath = cfg.db === undefined ? path.join(data, 'opencode.db') : cfg.db;
if (args[0] === 'debug' && args[1] === 'paths') {
  if (cfg.debugExit !== 0) process.exit(cfg.debugExit);
  const lines = [['home', env.HOME], ['data', data], ['log', path.join(data, 'log')]];
  if (dbPath !== null) lines.push(['db', dbPath]);
  for (const [k, v] of lines) process.stdout.write(k.padEnd(10) + ' ' + v + '\\n');
  process.exit(0);
}
if (args[0] === 'session' && args[1] === 'delete') {
  if (cfg.deleteExit !== 0) { process.stderr.write('delete failed\\n'); process.exit(cfg.deleteExit); }
  if (cfg.noop) process.exit(0);
  const Database = require(cfg.sqlite);
  const db = new Database(dbPath === null ? path.join(data, 'opencode.db') : dbPath);
  const ids = [args[2]];
  for (let i = 0; i < ids.length; i++) {
    for (const r of db.prepare('SELECT id FROM session_v2 WHERE parent_id = ?').all(ids[i])) ids.push(r.id);
  }
  const hasMsg = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'message_v2'").get().n > 0;
  for (const id of ids) {
    if (hasMsg) db.prepare('DELETE FROM message_v2 WHERE session_id = ?').run(id);
    db.prepare('DELETE FROM session_v2 WHERE id = ?').run(id);
  }
  db.close();
  process.exit(0);
}
if (env.MAM_TEST_HOLD) fs.openSync(env.MAM_TEST_HOLD, 'r');
process.stdout.write('ready\\n');
process.stdin.resume();
setInterval(() => {}, 1 << 30);
setTimeout(() => process.exit(0), 120000);
`;
}

/** Writes an executable `opencode` into `binDir` and returns its path. */
export function installFakeOpencode(binDir: string, opts: FakeOpencodeOptions): string {
  mkdirSync(binDir, { recursive: true });
  const file = join(binDir, 'opencode');
  writeFileSync(file, script(opts));
  chmodSync(file, 0o755);
  return file;
}
