// The least a reader that keeps one connection between calls must do per call (the adapters do it too, on the real
// ports): look at the database and its directory (two lstats, at once) and reopen only when one of them changed — while
// the directory's stamp stands no entry was made or removed in it, so no sidecar appeared (an immutable connection is
// right only with no -wal/-journal beside the file); on a change, the three sidecars too. Statements are prepared once.
import Database from 'better-sqlite3';
import { lstat } from 'node:fs/promises';
import { dirname } from 'node:path';
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
      const now = (await Promise.all([db, dirname(db)].map(look))).join('|');
      if (open === null || now !== stamp) {
        const sidecars = await Promise.all([`${db}-wal`, `${db}-journal`].map(look));
        if (sidecars.some((x) => x !== '-')) throw new Error('the bench database has sidecars');
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
