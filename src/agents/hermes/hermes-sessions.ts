import type Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { prepared } from '../../sqlite/prepared.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';

/**
 * One row of Hermes's `sessions` table, as stored (the id is the raw value: the graph needs every row, plausible or not).
 * @public
 */
export interface HermesSession {
  /** `sessions.id` as stored. */
  id: string;
  /** `cwd`, or null (compression and delegate children have none). */
  cwd: string | null;
  /** `git_repo_root` (TUI/web), or null. */
  gitRepoRoot: string | null;
  /** ACP sessions keep their cwd only in `model_config` JSON. */
  configCwd: string | null;
  /** `started_at`, epoch seconds, or null when absent or not a finite number. */
  startedAt: number | null;
  /** `parent_session_id`, or null. */
  parent: string | null;
  /** True while `ended_at` is null (the session was never closed: live, or crashed); false once closed or without the column. */
  open: boolean;
  /** `end_reason`, or null. */
  endReason: string | null;
  /** `source` (`cli`, `subagent`, `acp`, …), or null. */
  source: string | null;
  /** `model_config._delegate_from`: the parent of a delegate (subagent) child. */
  delegateFrom: string | null;
  /** `model_config._branched_from`: the parent of a `/branch` child. */
  branchedFrom: string | null;
  /** `model_config._reset_from`: a gateway reset child, a separate conversation. */
  resetFrom: string | null;
}

function seconds(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

const MAX_CONFIG_CHARS = 64 * 1024;

// Most rows have no `model_config` (or an empty one): one shared empty object for them, never written to.
const NO_CONFIG: Readonly<Record<string, unknown>> = Object.freeze({});

function config(value: unknown): Readonly<Record<string, unknown>> {
  if (typeof value !== 'string' || value.length > MAX_CONFIG_CHARS || value === '' || value === '{}') return NO_CONFIG;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : NO_CONFIG;
  } catch {
    return NO_CONFIG;
  }
}

/**
 * The `cwd` an ACP session's `model_config` text records, parsed as every row's is; null when none.
 * @internal
 */
export function configCwd(value: string): string | null {
  return text(config(value)['cwd']);
}

function column(name: string | undefined, alias: string): string {
  return `${name === undefined ? 'NULL' : quoteIdent(name)} AS ${alias}`;
}

/**
 * A prepared read of `sessions` rows: every row, or those a `WHERE` clause selects, for the parameters each call gives.
 * @public
 */
export type SessionQuery = (...params: readonly unknown[]) => HermesSession[];

// The SQL text of each read, built once per remembered columns object (a store's columns stay the same object while
// its lstats do) and `WHERE` clause: no quoting or joining per call.
const texts = new WeakMap<HermesSessionColumns, Map<string, string>>();

function selectSql(cols: HermesSessionColumns, where: string): string {
  let mine = texts.get(cols);
  if (mine === undefined) texts.set(cols, (mine = new Map()));
  let sql = mine.get(where);
  if (sql === undefined) {
    // In the order sessionQuery reads each raw row.
    const select = [
      column(cols.id, 'id'), column(cols.cwd, 'cwd'), column(cols.gitRepoRoot, 'git'), column(cols.startedAt, 'started'),
      column(cols.parent, 'parent'), column(cols.endedAt, 'ended'), column(cols.endReason, 'reason'), column(cols.source, 'source'), column(cols.modelConfig, 'config'),
    ].join(', ');
    sql = `SELECT ${select} FROM ${quoteIdent(cols.table)}${where === '' ? '' : ` WHERE ${where}`}`;
    // A caller's clause is built from the columns (ids are bound): few per columns object.
    if (mine.size < 32) mine.set(where, sql);
  }
  return sql;
}

/**
 * The read of the `sessions` rows a `WHERE` clause selects (every row for `''`), its statement prepared once per
 * connection and SQL text (see `prepared`), to run for many parameters; null without `sessions(id, cwd)`.
 * @public
 */
export function sessionQuery(db: Database.Database, cols: HermesSessionColumns | null, where = ''): SessionQuery | null {
  if (cols === null) return null;
  // Raw rows (arrays in the order selectSql names the columns): no object with named keys per row.
  const stmt = prepared(db, selectSql(cols, where), 'raw');
  const hasEnded = cols.endedAt !== undefined;
  return (...params) => {
    const out: HermesSession[] = [];
    for (const [id, cwd, git, started, parent, ended, reason, source, cfg] of stmt.all(...params) as unknown[][]) {
      if (typeof id !== 'string') continue;
      const mc = config(cfg);
      out.push({
        id,
        cwd: text(cwd),
        gitRepoRoot: text(git),
        configCwd: text(mc['cwd']),
        startedAt: seconds(started),
        parent: text(parent),
        open: hasEnded && ended === null,
        endReason: text(reason),
        source: text(source),
        delegateFrom: text(mc['_delegate_from']),
        branchedFrom: text(mc['_branched_from']),
        resetFrom: text(mc['_reset_from']),
      });
    }
    return out;
  };
}

/**
 * Every row of the `sessions` table through an open connection (read-only or the purge's own), or none without
 * `sessions(id, cwd)`.
 * @public
 */
export function sessionRows(db: Database.Database, cols: HermesSessionColumns | null = hermesSessionColumns(db)): HermesSession[] {
  return sessionQuery(db, cols)?.() ?? [];
}

/**
 * The sessions recorded in `state.db`, read through the read-only opener (the database's directory untouched); a
 * missing or unreadable database, or one without `sessions(id, cwd)`, gives none. Never throws.
 * @public
 */
export async function readHermesSessions(fs: FileSystemPort, dbPath: string): Promise<HermesSession[]> {
  try {
    await fs.stat(dbPath);
    return await withReadonlyDb(dbPath, { fs }, (h) => sessionRows(h.db));
  } catch {
    return [];
  }
}
