// The least a reader that keeps one connection between calls must do per call (the adapters do it too, on the real
// ports): look at the database and its three sidecars (four lstats, at once) and reopen only when one of them changed;
// an immutable connection is right only with no -wal/-journal beside the file. Statements are prepared once.
import Database from 'better-sqlite3';
import { lstat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export interface KeptStore {
  /** The connection after this call's looks (reopened when a look differs from the last one). */
  conn(): Promise<Database.Database>;
  /** A statement of the current connection, prepared once. */
  stmt(conn: Database.Database, sql: string): Database.Statement;
  close(): void;
}

const look = (p: string): Promise<string> =>
  lstat(p, { bigint: false }).then(
    (s) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`,
    () => '-',
  );

export function keptStore(db: string): KeptStore {
  let open: Database.Database | null = null;
  let stamp = '';
  let stmts = new Map<string, Database.Statement>();
  return {
    async conn() {
      const looks = await Promise.all([db, `${db}-wal`, `${db}-shm`, `${db}-journal`].map(look));
      if (looks[1] !== '-' || looks[3] !== '-') throw new Error('the bench database has sidecars');
      const now = looks.join('|');
      if (open === null || now !== stamp) {
        open?.close();
        open = new Database(`${pathToFileURL(db).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });
        stmts = new Map();
        stamp = now;
      }
      return open;
    },
    stmt(conn, sql) {
      let s = stmts.get(sql);
      if (s === undefined) stmts.set(sql, (s = conn.prepare(sql)));
      return s;
    },
    close() {
      open?.close();
      open = null;
    },
  };
}
