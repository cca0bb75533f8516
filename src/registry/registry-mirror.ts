import Database from '../sqlite/driver.js';
import { isPortError, PortError } from '../errors.js';
import { enableSqliteUri } from '../node/sqlite-uri.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';
import type { LoadedRegistry } from './loaded-registry.js';
import { ensureMirrorSchema, type MirrorStatements, mirrorStatements, rowColumns } from './mirror-sql.js';
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

function rebuild(s: MirrorStatements, next: LoadedRegistry): void {
  s.clearRows.run();
  next.state.herdr_sessions.forEach((row, i) => s.upsert.run(...rowColumns(row, i)));
  writeOrchestrators(s, next.state.orchestrator_uuids);
  s.setMeta.run('extra_json', extrasJson(next.state));
}

function applyDelta(s: MirrorStatements, prev: LoadedRegistry, next: LoadedRegistry, delta: RowDelta): void {
  for (const name of delta.removed) s.deleteRow.run(name);
  let seq = s.maxSeq.get() ?? -1;
  for (const i of delta.changed) {
    const row = next.state.herdr_sessions[i];
    // New names get the next seq; for an existing name the upsert keeps its seq.
    if (row !== undefined) s.upsert.run(...rowColumns(row, ++seq));
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
  statements: MirrorStatements;
  dev: number;
  ino: number;
}

/**
 * Writes a registry's SQLite mirror. One connection is kept between updates (a rollback-journal database holds no
 * lock and leaves no file beside it between transactions), and reopened when the file was replaced.
 * @public
 */
export class RegistryMirror {
  #conn: Connection | null = null;

  constructor(
    private readonly fs: FileSystemPort,
    /** The mirror's path. */
    readonly path: string,
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
      if (!isCorrupt(err)) throw err;
      await this.#remove();
      this.#write(await this.#connection(), prev, next, null);
    }
  }

  /** Closes the kept connection (the next sync opens a new one). */
  close(): void {
    this.#conn?.db.close();
    this.#conn = null;
  }

  #write(conn: Connection, prev: LoadedRegistry, next: LoadedRegistry, delta: RowDelta | null): void {
    ensureMirrorSchema(conn.db);
    const s = conn.statements;
    conn.db
      .transaction(() => {
        const current = s.getMeta.get('yaml_sha256');
        if (current === next.hash) return;
        if (delta !== null && delta.inOrder && prev.hash !== '' && current === prev.hash) applyDelta(s, prev, next, delta);
        else rebuild(s, next);
        s.setMeta.run('yaml_sha256', next.hash);
      })
      .immediate();
  }

  async #stat(): Promise<FileStat | null> {
    try {
      return await this.fs.stat(this.path);
    } catch (err) {
      if (isPortError(err, 'NotFound')) return null;
      throw err;
    }
  }

  // The kept connection while the file is still the one it opened; else a new one.
  async #connection(): Promise<Connection> {
    const st = await this.#stat();
    // A FIFO (or any non-regular file) in place of the mirror would block SQLite's synchronous open forever.
    if (st !== null && st.kind !== 'file') throw new PortError('NotRegularFile', 'mirror.open', `not a regular file (never opened): '${this.path}'`, { path: this.path });
    const kept = this.#conn;
    if (kept !== null && st !== null && st.ino === kept.ino && st.dev === kept.dev) return kept;
    this.close();
    enableSqliteUri();
    const db = new Database(this.path, { timeout: 2000 });
    try {
      // The commit is durable before the update returns, like the YAML it mirrors.
      db.pragma('synchronous = NORMAL');
      ensureMirrorSchema(db);
      const opened = (await this.#stat()) ?? { dev: -1, ino: -1 };
      this.#conn = { db, statements: mirrorStatements(db), dev: opened.dev, ino: opened.ino };
      return this.#conn;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  async #remove(): Promise<void> {
    for (const p of [this.path, `${this.path}-journal`, `${this.path}-wal`, `${this.path}-shm`]) {
      await this.fs.unlink(p).catch((err: unknown) => {
        if (!isPortError(err, 'NotFound')) throw err;
      });
    }
  }
}
