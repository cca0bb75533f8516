import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The four WAL states every reader of an agent database is tested in (spec/sqlite-readonly.md). */
export const WAL_STATES = ['clean', 'leftover', 'walonly', 'writer'] as const;
/** A WAL state, or `journal`: a hot rollback journal left by a killed writer in journal_mode=DELETE. */
export type WalFixtureState = (typeof WAL_STATES)[number] | 'journal';

const CHILD = fileURLToPath(new URL('./sqlite-wal-writer-child.mjs', import.meta.url));

/** A database laid out in one state; `stop()` ends a live writer (a no-op otherwise). */
export interface WalFixture {
  state: WalFixtureState;
  dbPath: string;
  /** The sidecar names the state must have beside the database, sorted with it. */
  names: string[];
  /** The live writer, in the `writer` state. */
  writer: ChildProcess | undefined;
  stop(): Promise<void>;
}

/** How the writer child gets its job: on its command line (where an in-use check sees the ids its SQL names), or not. */
export interface WalWriterOptions {
  /**
   * Put the job (its SQL, naming the rows' ids) on the writer's command line, for a test whose verdict is that such a
   * process counts as naming the conversation. Otherwise it goes through the environment: many fixtures' SQL names the
   * fixed ids of the real fixtures, and another file's in-use check of those ids reads the whole process table.
   */
  sqlOnCommandLine?: boolean;
}

function startChild(dbPath: string, sql: readonly string[], mode: 'close' | 'hold' | 'journal', opts: WalWriterOptions): ChildProcess {
  const job = JSON.stringify({ db: dbPath, sql, mode });
  const env: NodeJS.ProcessEnv = { ...process.env, ...(opts.sqlOnCommandLine === true ? {} : { MAM_TEST_CHILD_JSON: job }) };
  delete env['SQLITE_USE_URI'];
  return spawn(process.execPath, opts.sqlOnCommandLine === true ? [CHILD, job] : [CHILD], { stdio: ['pipe', 'pipe', 'pipe'], env });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function ready(child: ChildProcess): Promise<void> {
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`writer child exited (${String(code)}) before ready: ${err}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await exited(child);
}

/** The names a state leaves in the directory of `db` (nothing else lives there in these fixtures). */
export function expectedNames(dbName: string, state: WalFixtureState): string[] {
  const sidecars: Record<WalFixtureState, string[]> = {
    clean: [],
    leftover: ['-shm', '-wal'],
    writer: ['-shm', '-wal'],
    walonly: ['-wal'],
    journal: ['-journal'],
  };
  return [dbName, ...sidecars[state].map((s) => dbName + s)].sort();
}

/**
 * Builds `dbPath` (its directory must exist and hold nothing of it) in `state` with a REAL child process running `sql`:
 * clean (closed cleanly, sidecars gone), leftover (writer SIGKILLed: rows only in -wal, -shm kept), walonly (same minus -shm),
 * writer (a live child holding the WAL connection; call `stop()`), journal (a hot rollback journal from a killed transaction).
 * The SQL reaches the child through its environment unless `opts.sqlOnCommandLine`.
 */
export async function buildWalState(state: WalFixtureState, dbPath: string, sql: readonly string[], opts: WalWriterOptions = {}): Promise<WalFixture> {
  const names = expectedNames(basename(dbPath), state);
  const done = (writer?: ChildProcess): WalFixture => ({ state, dbPath, names, writer, stop: () => (writer ? kill(writer) : Promise.resolve()) });
  if (state === 'clean') {
    const child = startChild(dbPath, sql, 'close', opts);
    const code = await exited(child);
    if (code !== 0) throw new Error(`writer child failed with ${String(code)}`);
    // macOS keeps -wal/-shm after the checkpointing close (persistent WAL): remove them.
    for (const s of ['-wal', '-shm']) if (existsSync(dbPath + s)) unlinkSync(dbPath + s);
    return done();
  }
  const child = startChild(dbPath, sql, state === 'journal' ? 'journal' : 'hold', opts);
  await ready(child);
  if (state === 'writer') return done(child);
  await kill(child);
  if (state === 'walonly') unlinkSync(`${dbPath}-shm`);
  return done();
}

/** Names, sizes and mtimes of a directory, sorted: equal before and after a read that touched nothing. */
export function snapshotDir(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const s = statSync(join(dir, name));
      return `${name} size=${s.size} mtime=${s.mtimeMs} ino=${s.ino}`;
    });
}

/** The directory holding a fixture's database. */
export function dirOf(fx: WalFixture): string {
  return dirname(fx.dbPath);
}
