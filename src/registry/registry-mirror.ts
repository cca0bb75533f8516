import { basename, dirname, join } from 'node:path';
import Database from '../sqlite/driver.js';
import { isPortError } from '../errors.js';
import { enableSqliteUri } from '../node/sqlite-uri.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';
import { DB_FILE_SUFFIXES, ownFileRefusal, ownFilesRefusal } from '../sqlite/db-write-guard.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import type { LoadedRegistry } from './loaded-registry.js';
import { describeTables, ensureMirrorSchema, ForeignMirrorDatabase, type MirrorStatements, mirrorSchemaState, mirrorStatements, rowColumns } from './mirror-sql.js';
import { RegistryFileRefusedError } from './registry-file-refused-error.js';
import { refuseDatabasesAt } from './registry-files.js';
import { plainEqual } from './plain-data.js';
import type { RowDelta } from './registry-commit.js';

// The SQLite mirror `.mam/agent-sessions.db`: table `sessions` (one row per YAML row, `seq` ascending in YAML order,
// the whole row in `row_json`), `orchestrator_uuids`, and `registry_meta` holding the sha256 of the YAML it mirrors
// and the other top-level keys. It is derived data: whenever its hash is not the previous YAML's, it is rebuilt.

function extrasJson(state: LoadedRegistry['state']): string {
  const extras: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state)) if (k !== 'herdr_sessions' && k !== 'orchestrator_uuids') extras[k] = v;
  return JSON.stringify(extras);
}

function writeOrchestrators(s: MirrorStatements, ids: readonly string[]): void {
  s.clearOrchestrators.run();
  ids.forEach((id, i) => s.addOrchestrator.run(i, id));
}

function rebuild(s: MirrorStatements, next: LoadedRegistry, agents: AgentCatalog<string> | undefined): void {
  s.clearRows.run();
  next.state.herdr_sessions.forEach((row, i) => s.upsert.run(...rowColumns(row, i, agents)));
  writeOrchestrators(s, next.state.orchestrator_uuids);
  s.setMeta.run('extra_json', extrasJson(next.state));
}

function applyDelta(s: MirrorStatements, prev: LoadedRegistry, next: LoadedRegistry, delta: RowDelta, agents: AgentCatalog<string> | undefined): void {
  for (const name of delta.removed) s.deleteRow.run(name);
  let seq = s.maxSeq.get() ?? -1;
  for (const i of delta.changed) {
    const row = next.state.herdr_sessions[i];
    // New names get the next seq; for an existing name the upsert keeps its seq.
    if (row !== undefined) s.upsert.run(...rowColumns(row, ++seq, agents));
  }
  if (!plainEqual(prev.state.orchestrator_uuids, next.state.orchestrator_uuids)) writeOrchestrators(s, next.state.orchestrator_uuids);
  const extras = extrasJson(next.state);
  if (extras !== extrasJson(prev.state)) s.setMeta.run('extra_json', extras);
}

function isCorrupt(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : '';
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

interface Connection {
  db: Database.Database;
  // Prepared once the tables are known to be the mirror's (a statement cannot be prepared on a database without them).
  statements: MirrorStatements | null;
  dev: number;
  ino: number;
}

/**
 * Writes a registry's SQLite mirror. One connection is kept between updates (a rollback-journal database holds no
 * lock and leaves no file beside it between transactions), and reopened when the file was replaced. The file and its
 * sidecars must be regular files with one link (a link, a FIFO or a directory at any of the four names is refused), the
 * file is opened only where it lies (SQLite's own resolution of the path is checked: no link followed), and a database
 * that is not the mirror (another application's) is never changed: each is a {@link RegistryFileRefusedError}.
 * @public
 */
export class RegistryMirror {
  #conn: Connection | null = null;

  constructor(
    private readonly fs: FileSystemPort,
    /** The mirror's path. */
    readonly path: string,
    /** The agents a row may name (its `own_id` column is read under its agent's own key); the built-ins by default. */
    private readonly agents?: AgentCatalog<string>,
  ) {}

  /**
   * Brings the mirror from `prev` to `next` in one transaction: incrementally when it holds exactly `prev` and the
   * rows kept their order, else rebuilt; a mirror SQLite cannot read (corrupt, not a database) is removed and rebuilt.
   */
  async sync(prev: LoadedRegistry, next: LoadedRegistry, delta: RowDelta | null): Promise<void> {
    try {
      this.#write(await this.#connection(), prev, next, delta);
    } catch (err) {
      this.close();
      if (!isCorrupt(err)) throw this.#refusalOf(err);
      await this.#remove();
      this.#write(await this.#connection(), prev, next, null);
    }
  }

  /**
   * Rejects with a {@link RegistryFileRefusedError} when the mirror's file or a sidecar is not the registry's own (a link,
   * a hard link, not a regular file) or the file is a database that is not the mirror; writes nothing (an absent mirror
   * stays absent). Any other failure (a corrupt file, a busy database) is left to {@link RegistryMirror.sync}.
   */
  async check(): Promise<void> {
    await this.#checkNames();
    if ((await this.#lstat()) === null) return;
    try {
      const conn = await this.#connection(false);
      // The look needs no write: a mirror or an empty database passes, anything else is refused untouched.
      if (conn !== null && mirrorSchemaState(conn.db) === 'foreign') throw new ForeignMirrorDatabase(describeTables(conn.db));
    } catch (err) {
      const refusal = this.#refusalOf(err);
      if (refusal instanceof RegistryFileRefusedError) {
        this.close();
        throw refusal;
      }
    }
  }

  /** Closes the kept connection (the next sync opens a new one). */
  close(): void {
    this.#conn?.db.close();
    this.#conn = null;
  }

  #write(conn: Connection, prev: LoadedRegistry, next: LoadedRegistry, delta: RowDelta | null): void {
    ensureMirrorSchema(conn.db);
    conn.statements ??= mirrorStatements(conn.db);
    const s = conn.statements;
    conn.db
      .transaction(() => {
        const current = s.getMeta.get('yaml_sha256');
        if (current === next.hash) return;
        if (delta !== null && delta.inOrder && prev.hash !== '' && current === prev.hash) applyDelta(s, prev, next, delta, this.agents);
        else rebuild(s, next, this.agents);
        s.setMeta.run('yaml_sha256', next.hash);
      })
      .immediate();
  }

  // A foreign database and a name that is not ours are refusals that name the path; anything else passes unchanged.
  #refusalOf(err: unknown): unknown {
    if (err instanceof ForeignMirrorDatabase) return new RegistryFileRefusedError(this.path, 'foreign-database', { detail: err.found });
    return err;
  }

  async #lstat(): Promise<FileStat | null> {
    try {
      return await this.fs.lstat(this.path);
    } catch (err) {
      if (isPortError(err, 'NotFound')) return null;
      throw err;
    }
  }

  // The file and its three sidecars: each absent, or a regular file with one link (SQLite writes every one of them).
  async #checkNames(): Promise<void> {
    const names = DB_FILE_SUFFIXES.map((s) => `${this.path}${s}`);
    const refusal = await ownFilesRefusal(this.fs, names, () => true);
    if (refusal !== null) throw new RegistryFileRefusedError(refusal.path, refusal.problem, { detail: refusal.problem === 'unchecked' ? refusal.message : '' });
    // A database at a sidecar's name is another file's (SQLite would roll it back as a journal or replay it as a WAL).
    await refuseDatabasesAt(this.fs, names.slice(1));
  }

  // The kept connection while the file is still the one it opened; else a new one (made first, as an empty file of its
  // own, when `create`; null when absent and not `create`).
  async #connection(): Promise<Connection>;
  async #connection(create: false): Promise<Connection | null>;
  async #connection(create = true): Promise<Connection | null> {
    await this.#checkNames();
    let st = await this.#lstat();
    const kept = this.#conn;
    if (kept !== null && st !== null && st.ino === kept.ino && st.dev === kept.dev) return kept;
    this.close();
    if (st === null) {
      if (!create) return null;
      // Made here, never by SQLite: a file SQLite creates is created wherever the path resolves.
      await this.fs.writeFile(this.path, new Uint8Array(0), { exclusive: true, noLink: true }).catch((err: unknown) => {
        if (!isPortError(err, 'AlreadyExists')) throw err;
      });
      await this.#checkNames();
      st = await this.#lstat();
      if (st === null) throw new RegistryFileRefusedError(this.path, 'moved', { detail: 'removed while being created' });
    }
    enableSqliteUri();
    const db = new Database(this.path, { timeout: 2000, fileMustExist: true });
    try {
      await this.#assertInPlace(db, st);
      // The commit is durable before the update returns, like the YAML it mirrors.
      db.pragma('synchronous = NORMAL');
      this.#conn = { db, statements: null, dev: st.dev, ino: st.ino };
      return this.#conn;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  // SQLite resolves every link of the path before it opens it: the file it names must be this path in the real
  // directory, and the name must still be the file looked at before the open (nothing swapped in meanwhile).
  async #assertInPlace(db: Database.Database, before: FileStat): Promise<void> {
    const rows = db.pragma('database_list') as Array<{ name?: unknown; file?: unknown }>;
    const file = rows.find((r) => r.name === 'main')?.file;
    const expected = join(await this.fs.realpath(dirname(this.path)), basename(this.path));
    const after = await this.#lstat();
    const moved = file !== expected || after === null || after.dev !== before.dev || after.ino !== before.ino;
    if (moved) throw new RegistryFileRefusedError(this.path, 'moved', { detail: `SQLite opened ${String(file)}` });
    const refusal = ownFileRefusal(this.path, after);
    if (refusal !== null) throw new RegistryFileRefusedError(this.path, refusal.problem);
  }

  async #remove(): Promise<void> {
    for (const p of [this.path, `${this.path}-journal`, `${this.path}-wal`, `${this.path}-shm`]) {
      await this.fs.unlink(p).catch((err: unknown) => {
        if (!isPortError(err, 'NotFound')) throw err;
      });
    }
  }
}
