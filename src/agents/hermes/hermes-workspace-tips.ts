import type Database from 'better-sqlite3';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { inReadScope } from '../../sqlite/read-scope.js';
import { rememberedProbe } from '../../sqlite/remembered-probe.js';
import type { StateClock } from '../../sqlite/state-clock.js';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { mapLimit } from '../../map-limit.js';
import { prepared } from '../../sqlite/prepared.js';
import { chainRows } from './hermes-chain-rows.js';
import { HermesGraph } from './hermes-conversation.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';
import { configCwd, type HermesSession, sessionQuery } from './hermes-sessions.js';

// Recorded directories looked at together: the thread pool then never waits for the next request (a window of 16 cost
// about half again as much); the bound keeps a store of many thousand directories from queueing them all.
const STATS_IN_FLIGHT = 1024;

/** Whether a recorded directory is the workspace (see `directoryMatcher`). */
type Matches = (recorded: string) => Promise<boolean>;

// ACP sessions keep their cwd in `model_config` JSON: only a text that could hold a `cwd` key (spelled out, or behind a
// \u escape) is handed to JS, and parsed exactly as every row is (see sessionQuery).
const acpText = (c: string): string => `(instr(${c}, 'cwd') > 0 OR instr(${c}, '\\u') > 0)`;

/**
 * The distinct directories a store's sessions record ({@link recordedDirs}): all of them, and those recorded only as
 * an ACP cwd inside `model_config` JSON.
 * @public
 */
export interface RecordedDirs {
  /** Every distinct recorded directory (`cwd`, `git_repo_root`, ACP cwd). */
  all: string[];
  /** The ACP cwds among them (a `model_config` text's `cwd`). */
  acp: string[];
}

// The SQL of each columns object (a store's columns stay the same object while its lstats do), built once.
const distinctSql = new WeakMap<HermesSessionColumns, string>();

// The (`cwd`, `git_repo_root`, ACP config text) triples are few: a store records few workspaces.
/**
 * The distinct directories the sessions record (`cwd`, `git_repo_root`, the ACP cwd of rows whose `model_config` could
 * hold one), listed by SQLite in one scan (no row reaches JS).
 * @public
 */
export function recordedDirs(db: Database.Database, cols: HermesSessionColumns): RecordedDirs {
  let sql = distinctSql.get(cols);
  if (sql === undefined) {
    const pick = (c: string | undefined): string => (c === undefined ? 'NULL' : q(c));
    const mc = cols.modelConfig === undefined ? 'NULL' : `CASE WHEN ${acpText(q(cols.modelConfig))} THEN ${q(cols.modelConfig)} END`;
    distinctSql.set(cols, (sql = `SELECT DISTINCT ${pick(cols.cwd)} AS c, ${pick(cols.gitRepoRoot)} AS g, ${mc} AS m FROM ${q(cols.table)}`));
  }
  const rows = prepared(db, sql).raw().all() as unknown[][];
  const out = new Set<string>();
  const acp = new Set<string>();
  for (const [c, g, m] of rows) {
    for (const d of [c, g]) if (typeof d === 'string' && d !== '') out.add(d);
    if (typeof m === 'string') {
      const cwd = configCwd(m);
      if (cwd !== null) {
        out.add(cwd);
        acp.add(cwd);
      }
    }
  }
  return { all: [...out], acp: [...acp] };
}

const dirsOf = (s: HermesSession, acp: boolean): string[] => [s.cwd, s.gitRepoRoot, acp ? s.configCwd : null].filter((d): d is string => d !== null);

/**
 * Options of {@link workspaceTips}.
 * @public
 */
export interface WorkspaceTipsOptions {
  /** Count an ACP session's cwd (inside `model_config`) as recording the workspace (default true; discovery: false, as Hermes' own listing, which matches the `cwd` column only). */
  acp?: boolean;
}

// Up to this many matching directories are bound one placeholder each (`IN (?, ?)`, which SQLite checks faster per row
// than a `json_each` list); more go as one JSON list.
const MAX_BOUND = 8;

// The `WHERE` clause selecting the rows that record one of `n` directories (and, with `acp`, every ACP candidate).
function hitsClause(cols: HermesSessionColumns, n: number, acp: boolean): { where: string; lists: number } {
  const list = n <= MAX_BOUND ? `(${Array.from({ length: n }, () => '?').join(', ')})` : '(SELECT value FROM json_each(?))';
  const by = [cols.cwd, cols.gitRepoRoot].filter((c): c is string => c !== undefined).map((c) => `${q(c)} IN ${list}`);
  const lists = by.length;
  if (acp && cols.modelConfig !== undefined) by.push(acpText(q(cols.modelConfig)));
  return { where: by.join(' OR '), lists };
}

/**
 * The tips of the conversations of a workspace in one `state.db` connection, without reading every row: SQLite lists the
 * distinct recorded directories, each is matched once, SQLite returns the rows that record a matching one (the ACP
 * candidates only when a matching directory is some row's ACP cwd), and each such row's conversation is read by the
 * primary key and the parent index ({@link chainRows}). A conversation counts when its root (a row that is neither a
 * compression continuation nor a delegate) or its tip records the workspace — the rule of reading the whole graph, on
 * the rows that decide it. `dirs`: the recorded directories when already known (see {@link readWorkspaceTips}).
 * @public
 */
export async function workspaceTips(
  db: Database.Database,
  matches: Matches,
  cols: HermesSessionColumns | null = hermesSessionColumns(db),
  dirs?: RecordedDirs,
  opts: WorkspaceTipsOptions = {},
): Promise<HermesSession[]> {
  if (cols === null) return [];
  const withAcp = opts.acp !== false;
  const known = dirs ?? recordedDirs(db, cols);
  // Each recorded directory's look (a stat, holding nothing but its answer) runs with the others, up to STATS_IN_FLIGHT.
  const mine = new Set((await mapLimit(known.all, STATS_IN_FLIGHT, async (d) => ((await matches(d)) ? d : null))).filter((d): d is string => d !== null));
  if (mine.size === 0) return [];
  const ofHere = (s: HermesSession): boolean => dirsOf(s, withAcp).some((d) => mine.has(d));
  // One more scan: the rows recording a matching directory, and — only when one of them is an ACP cwd — the ACP
  // candidates (their cwd checked in JS). A row whose ACP cwd matches is always such a candidate, its cwd one of `acp`.
  const acp = withAcp && known.acp.some((d) => mine.has(d));
  const { where, lists } = hitsClause(cols, mine.size, acp);
  const query = sessionQuery(db, cols, where) as NonNullable<ReturnType<typeof sessionQuery>>;
  const bound = mine.size <= MAX_BOUND ? [...mine] : [JSON.stringify([...mine])];
  const hits = query(...Array.from({ length: lists }, () => bound).flat()).filter(ofHere);
  const tips = new Map<string, HermesSession>();
  const done = new Set<string>();
  for (const hit of hits) {
    if (done.has(hit.id)) continue;
    // The hit's own row was just read on this connection: its lookup by the primary key is not repeated.
    const graph = new HermesGraph(chainRows(db, hit.id, cols, undefined, hit));
    const conv = graph.conversation(hit.id);
    if (conv === undefined) continue;
    for (const m of conv.chain) done.add(m);
    const { root, tip } = conv;
    if (graph.isCompressionChild(root) || graph.isDelegate(root)) continue;
    if (ofHere(root) || ofHere(tip)) tips.set(tip.id, tip);
  }
  return [...tips.values()];
}

/**
 * {@link workspaceTips} of `state.db` (a regular file, checked by the opener) through the read-only opener; with `now`
 * (the ports' clock) its columns and recorded directories are remembered under the `lstat`s of the file and its sidecars
 * once settled (any write changes them; see `rememberedProbe`), so a later call scans `sessions` once, not twice; a missing or unreadable database gives none. `dirLook`: the caller's look at the database's directory (see `OpenReadonlyOptions.dirLook`). Never throws.
 * @public
 */
export async function readWorkspaceTips(fs: FileSystemPort, dbPath: string, matches: Matches, now?: StateClock, dirLook?: PromiseLike<FileStat | null>, opts: WorkspaceTipsOptions = {}): Promise<HermesSession[]> {
  try {
    // Inside a read scope a store that is not there is not asked for: the scope lists what it opened.
    if (inReadScope()) await fs.stat(dbPath);
    return await withReadonlyDb(dbPath, { fs, requireFile: true, dirLook }, (h) => {
      const facts = rememberedProbe(fs, `hermes-dirs\0${dbPath}`, h, now, () => {
        const cols = hermesSessionColumns(h.db);
        return { cols, dirs: cols === null ? { all: [], acp: [] } : recordedDirs(h.db, cols) };
      });
      return workspaceTips(h.db, matches, facts.cols, facts.dirs, opts);
    });
  } catch {
    return [];
  }
}
