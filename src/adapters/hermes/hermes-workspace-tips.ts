import type Database from 'better-sqlite3';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { rememberedProbe, type StateClock } from '../codex/state-cache.js';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { mapLimit } from '../../map-limit.js';
import { chainRows } from './hermes-chain-rows.js';
import { HermesGraph } from './hermes-conversation.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';
import { configCwd, type HermesSession, sessionQuery } from './hermes-sessions.js';

/** Whether a recorded directory is the workspace (see `directoryMatcher`). */
type Matches = (recorded: string) => Promise<boolean>;

// ACP sessions keep their cwd in `model_config` JSON: only a text that could hold a `cwd` key (spelled out, or behind a
// \u escape) is handed to JS, and parsed exactly as every row is (see sessionQuery).
const acpText = (c: string): string => `(instr(${c}, 'cwd') > 0 OR instr(${c}, '\\u') > 0)`;

// One scan by SQLite: the distinct recorded directories — the (`cwd`, `git_repo_root`, ACP config text) triples, a
// workspace has few — and, in the same pass, the id of every row that records one of `sure` (spellings known to be the
// workspace) or could hold an ACP cwd: those rows alone come out one by one, the others fold into their triple.
function scanDirs(db: Database.Database, cols: HermesSessionColumns, sure: readonly string[]): { dirs: string[]; hits: string[] } {
  const pick = (c: string | undefined): string => (c === undefined ? 'NULL' : q(c));
  const acp = cols.modelConfig === undefined ? null : acpText(q(cols.modelConfig));
  const mc = acp === null ? 'NULL' : `CASE WHEN ${acp} THEN ${q(cols.modelConfig as string)} END`;
  const hitBy = [cols.cwd, cols.gitRepoRoot].filter((c): c is string => c !== undefined).map((c) => `${q(c)} IN (SELECT value FROM json_each(@sure))`);
  if (acp !== null) hitBy.push(acp);
  const hit = hitBy.length === 0 ? 'NULL' : `CASE WHEN ${hitBy.join(' OR ')} THEN ${q(cols.id)} END`;
  const rows = db.prepare(`SELECT DISTINCT ${pick(cols.cwd)} AS c, ${pick(cols.gitRepoRoot)} AS g, ${mc} AS m, ${hit} AS h FROM ${q(cols.table)}`).raw().all({ sure: JSON.stringify(sure) }) as unknown[][];
  const out = new Set<string>();
  const hits = new Set<string>();
  for (const [c, g, m, h] of rows) {
    for (const d of [c, g]) if (typeof d === 'string' && d !== '') out.add(d);
    if (typeof m === 'string') {
      const cwd = configCwd(m);
      if (cwd !== null) out.add(cwd);
    }
    if (typeof h === 'string') hits.add(h);
  }
  return { dirs: [...out], hits: [...hits] };
}

const dirsOf = (s: HermesSession): string[] => [s.cwd, s.gitRepoRoot, s.configCwd].filter((d): d is string => d !== null);

/**
 * The tips of the conversations of a workspace in one `state.db` connection, without reading every row: one scan by
 * SQLite lists the distinct recorded directories, each is matched once, and the rows that record a matching one are
 * those the same scan named (when every match is one of `sure`, the workspace's spellings known up front, e.g. as given
 * and its realpath) or else those a second scan returns; each such row's conversation is read by the primary key and the
 * parent index ({@link chainRows}). A conversation counts when its root (a row that is neither a compression
 * continuation nor a delegate) or its tip records the workspace — the rule of reading the whole graph, on the rows that
 * decide it.
 * @public
 */
export async function workspaceTips(
  db: Database.Database,
  matches: Matches,
  cols: HermesSessionColumns | null = hermesSessionColumns(db),
  sure: readonly string[] = [],
): Promise<HermesSession[]> {
  if (cols === null) return [];
  const scan = scanDirs(db, cols, sure);
  const mine = new Set((await mapLimit(scan.dirs, 16, async (d) => ((await matches(d)) ? d : null))).filter((d): d is string => d !== null));
  if (mine.size === 0) return [];
  const ofHere = (s: HermesSession): boolean => dirsOf(s).some((d) => mine.has(d));
  const known = new Set(sure);
  let hits: HermesSession[];
  if ([...mine].every((d) => known.has(d))) {
    // The scan named them: read by the primary key.
    hits = (sessionQuery(db, cols, `${q(cols.id)} IN (SELECT value FROM json_each(?))`) as NonNullable<ReturnType<typeof sessionQuery>>)(JSON.stringify(scan.hits));
  } else {
    // A directory that resolves to the workspace under another spelling: one more scan, for the rows recording a matching
    // directory, and the ACP candidates (their cwd checked in JS).
    const by = [cols.cwd, cols.gitRepoRoot].filter((c): c is string => c !== undefined).map((c) => `${q(c)} IN (SELECT value FROM json_each(?))`);
    if (cols.modelConfig !== undefined) by.push(acpText(q(cols.modelConfig)));
    const query = sessionQuery(db, cols, by.join(' OR ')) as NonNullable<ReturnType<typeof sessionQuery>>;
    const json = JSON.stringify([...mine]);
    hits = query(...by.filter((b) => b.includes('json_each')).map(() => json));
  }
  const tips = new Map<string, HermesSession>();
  const done = new Set<string>();
  for (const hit of hits.filter(ofHere)) {
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
 * {@link workspaceTips} of `state.db` (a regular file, checked by the opener) through the read-only opener, its columns
 * remembered with `now` as in `hermesVerifyMany`; a missing or unreadable database gives none. Never throws.
 * @public
 */
export async function readWorkspaceTips(fs: FileSystemPort, dbPath: string, matches: Matches, sure: readonly string[] = [], now?: StateClock): Promise<HermesSession[]> {
  try {
    return await withReadonlyDb(dbPath, { fs, requireFile: true }, (h) => workspaceTips(h.db, matches, rememberedProbe(fs, `hermes-columns\0${dbPath}`, h, now, () => hermesSessionColumns(h.db)), sure));
  } catch {
    return [];
  }
}
