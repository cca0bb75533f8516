import type Database from 'better-sqlite3';
import { isAbsolute, join } from 'node:path';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { quoteIdent as q, tableNames, userVersion } from '../../sqlite/schema.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import { detectOpencodeLayout, isKnownLayout, sessionTables } from './opencode-layout.js';

function facts(db: Database.Database): { layout: string; known: boolean; counts: Record<string, number> } {
  const layout = detectOpencodeLayout(db);
  const tables = tableNames(db);
  const parts = [layout.v1 === null ? null : '1.x session', layout.v2 === null ? null : '2.x session_v2'].filter((x): x is string => x !== null);
  const migrations = tables.find((t) => t.toLowerCase() === 'migration' || t.toLowerCase() === '__drizzle_migrations');
  const applied = migrations === undefined ? null : (db.prepare(`SELECT count(*) FROM ${q(migrations)}`).pluck().get() as number);
  const text = `${parts.length > 0 ? parts.join(' + ') : 'no session table'} (user_version ${userVersion(db)}${applied === null ? '' : `, ${applied} migrations`})`;
  const counts: Record<string, number> = {};
  for (const t of sessionTables(layout)) {
    counts[`${t.table} rows`] = db.prepare(`SELECT count(*) FROM ${q(t.table)}`).pluck().get() as number;
    if (t.parent !== null) counts[`${t.table} child sessions`] = db.prepare(`SELECT count(*) FROM ${q(t.table)} WHERE ${q(t.parent)} IS NOT NULL AND ${q(t.parent)} <> ''`).pluck().get() as number;
  }
  return { layout: text, known: isKnownLayout(layout), counts };
}

/**
 * A read-only look at an OpenCode home without running its CLI (which would write to its own log): the data dir from
 * `XDG_DATA_HOME` or `<home>/.local/share`, the database's session tables, `user_version` and migrations, session counts,
 * and legacy JSON storage; an unreadable data dir or database (`readable: false`) or an unknown layout is a problem. The
 * database is `located` when given (the one `opencode debug paths` named, which may lie outside the data dir), else
 * `<data dir>/opencode.db`. Never rejects.
 * @public
 */
export async function inspectOpencodeHome(fs: FileSystemPort, home: string, env: Readonly<Record<string, string | undefined>>, located?: string): Promise<StoreReport> {
  const xdg = env['XDG_DATA_HOME'];
  const dataDir = xdg !== undefined && xdg !== '' && isAbsolute(xdg) ? join(xdg, 'opencode') : join(home, '.local', 'share', 'opencode');
  const report: StoreReport = { agent: 'opencode', presence: 'absent', root: dataDir, layout: null, known: null, counts: {}, problems: [] };
  const root = await lookAtRoot(fs, dataDir);
  if (root.kind === 'unreadable') return { ...report, presence: 'present', problems: [root.problem], readable: false };
  const dbPath = located ?? join(dataDir, 'opencode.db');
  const dbThere = (await fs.lstat(dbPath).catch(() => null)) !== null;
  if (root.kind === 'absent' && !dbThere) return report;
  report.presence = 'present';
  if (dbThere) {
    try {
      const f = await withReadonlyDb(dbPath, { fs }, ({ db }) => facts(db));
      report.layout = f.layout;
      report.known = f.known;
      Object.assign(report.counts, f.counts);
      if (!f.known) report.problems.push(`${dbPath}: no session table this adapter knows: purges refuse`);
    } catch (err) {
      report.known = false;
      report.readable = false;
      report.problems.push(`${dbPath}: unreadable (${describeError(err)}): purges refuse`);
    }
  }
  const legacy = await fs.readdir(join(dataDir, 'storage', 'session')).catch(() => null);
  if (legacy !== null) {
    report.counts['legacy storage projects'] = legacy.length;
    report.layout = report.layout === null ? 'legacy JSON storage' : `${report.layout} + legacy JSON storage`;
    report.known ??= true;
  }
  return report;
}
