import type Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { mapLimit } from '../../map-limit.js';
import { chainRows } from './hermes-chain-rows.js';
import { HermesGraph } from './hermes-conversation.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';
import { type HermesSession, sessionQuery } from './hermes-sessions.js';

/** Whether a recorded directory is the workspace (see `directoryMatcher`). */
type Matches = (recorded: string) => Promise<boolean>;

// The distinct recorded directories, collected by SQLite's own scan (no row reaches JS): `cwd` and `git_repo_root`.
function recordedDirs(db: Database.Database, cols: HermesSessionColumns): string[] {
  const parts = [cols.cwd, cols.gitRepoRoot].filter((c): c is string => c !== undefined).map((c) => `SELECT ${q(c)} AS d FROM ${q(cols.table)}`);
  const sql = `SELECT DISTINCT d FROM (${parts.join(' UNION ALL ')}) WHERE typeof(d) = 'text' AND d <> ''`;
  return db.prepare(sql).pluck().all() as string[];
}

// ACP sessions keep their cwd in `model_config` JSON: only rows whose text could hold a `cwd` key (spelled out, or
// behind a \u escape) are read, and parsed exactly as every row is (see sessionQuery).
function acpRows(db: Database.Database, cols: HermesSessionColumns): HermesSession[] {
  if (cols.modelConfig === undefined) return [];
  const c = q(cols.modelConfig);
  return (sessionQuery(db, cols, `instr(${c}, 'cwd') > 0 OR instr(${c}, '\\u') > 0`) as NonNullable<ReturnType<typeof sessionQuery>>)().filter((r) => r.configCwd !== null);
}

const dirsOf = (s: HermesSession): string[] => [s.cwd, s.gitRepoRoot, s.configCwd].filter((d): d is string => d !== null);

/**
 * The tips of the conversations of a workspace in one `state.db` connection, without reading every row: SQLite lists the
 * distinct recorded directories, each is matched once, SQLite returns the rows that record a matching one, and each such
 * row's conversation is read by the primary key and the parent index ({@link chainRows}). A conversation counts when its
 * root (a row that is neither a compression continuation nor a delegate) or its tip records the workspace — the rule of
 * reading the whole graph, on the rows that decide it.
 * @public
 */
export async function workspaceTips(db: Database.Database, matches: Matches, cols: HermesSessionColumns | null = hermesSessionColumns(db)): Promise<HermesSession[]> {
  if (cols === null) return [];
  const acp = acpRows(db, cols);
  const dirs = [...new Set([...recordedDirs(db, cols), ...acp.map((r) => r.configCwd as string)])];
  const mine = new Set((await mapLimit(dirs, 16, async (d) => ((await matches(d)) ? d : null))).filter((d): d is string => d !== null));
  if (mine.size === 0) return [];
  const ofHere = (s: HermesSession): boolean => dirsOf(s).some((d) => mine.has(d));
  const by = [cols.cwd, cols.gitRepoRoot].filter((c): c is string => c !== undefined).map((c) => `${q(c)} IN (SELECT value FROM json_each(?))`);
  const query = sessionQuery(db, cols, by.join(' OR ')) as NonNullable<ReturnType<typeof sessionQuery>>;
  const json = JSON.stringify([...mine]);
  const hits = [...query(...by.map(() => json)), ...acp].filter(ofHere);
  const tips = new Map<string, HermesSession>();
  const done = new Set<string>();
  for (const hit of hits) {
    if (done.has(hit.id)) continue;
    const graph = new HermesGraph(chainRows(db, hit.id, cols));
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
 * {@link workspaceTips} of `state.db` through the read-only opener; a missing or unreadable database gives none. Never throws.
 * @public
 */
export async function readWorkspaceTips(fs: FileSystemPort, dbPath: string, matches: Matches): Promise<HermesSession[]> {
  try {
    await fs.stat(dbPath);
    return await withReadonlyDb(dbPath, { fs }, (h) => workspaceTips(h.db, matches));
  } catch {
    return [];
  }
}
