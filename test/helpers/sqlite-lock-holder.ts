// A child process that holds a SQLite database's write lock so that readers get SQLITE_BUSY, until released. The
// database is put in WAL mode and read first (its -shm is in use, so a reader takes the in-place route), then the
// connection switches to exclusive locking mode and holds `BEGIN EXCLUSIVE` with a write: it keeps the file's lock for
// as long as it lives, as a writer in exclusive locking mode does. (A plain `BEGIN EXCLUSIVE` in WAL mode blocks no
// reader, and in rollback mode the -journal sends a reader to a private copy: neither makes a read fail.)
// The child is a script file named `name` (plain CommonJS, run by this node through its `#!` line), started with `args`:
// named `opencode` and started as `serve --service`, it is what OpenCode's per-user service looks like in a process table.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

function script(db: string, write: string): string {
  const cfg = JSON.stringify({ db, write, sqlite: BETTER_SQLITE3 });
  return `#!${process.execPath}
const cfg = ${cfg};
const Database = require(cfg.sqlite);
const db = new Database(cfg.db, { fileMustExist: true });
db.pragma('journal_mode = WAL');
db.prepare('SELECT count(*) FROM sqlite_schema').get();
db.pragma('locking_mode = EXCLUSIVE');
db.exec('BEGIN EXCLUSIVE');
db.exec(cfg.write);
process.stdout.write('locked\\n');
process.stdin.on('data', () => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\\n');
  process.exit(0);
});
setTimeout(() => process.exit(3), 120000);
`;
}

/** A running lock holder. */
export interface LockHolder {
  readonly pid: number;
  /** Rolls its write back, closes the database and waits for the child to exit. */
  release(): Promise<void>;
}

function lineFrom(child: ChildProcess, want: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (out.split('\n').includes(want)) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`lock holder exited ${String(code)} before "${want}": ${err}`)));
  });
}

/**
 * Starts a holder of `db`'s write lock (its write: `write`, SQL that changes a row) as the script `<dir>/<name>` run with
 * `args`; resolves once the lock is held.
 */
export async function holdWriteLock(db: string, opts: { dir: string; name: string; args?: readonly string[]; write: string }): Promise<LockHolder> {
  mkdirSync(opts.dir, { recursive: true });
  const file = join(opts.dir, opts.name);
  writeFileSync(file, script(db, opts.write));
  chmodSync(file, 0o755);
  const child = spawn(file, [...(opts.args ?? [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await lineFrom(child, 'locked');
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  let released: Promise<void> | undefined;
  return {
    pid: child.pid as number,
    release: () => {
      released ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const done = lineFrom(child, 'released').catch(() => undefined);
          child.stdin?.write('release\n');
          await done;
        }
        await exited;
      })();
      return released;
    },
  };
}
