import type Database from 'better-sqlite3';
import { canonicalCodexId } from './codex-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import { quoteIdent as q, tableColumns, tableNames } from '../../sqlite/schema.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { readRolloutHead, subagentParent } from './rollout-head.js';
import { scanRollouts } from './rollout-scan.js';
import { stateLayout } from './state-layout.js';

/** At most this many descendants are collected (a cycle or a runaway tree stops there). */
const MAX_DESCENDANTS = 1000;
const HEADS_IN_FLIGHT = 16;

function find(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted);
}

/**
 * Which of `ids` are sub-agent threads by their own `threads` row (`source` is `{"subagent":…}`), through an already
 * read-only connection. A spawn edge alone does not make a thread a sub-agent: the thread's own record must say so.
 * @public
 */
export function subagentsAmong(db: Database.Database, ids: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (ids.length === 0) return out;
  const tables = tableNames(db);
  const marks = ids.map(() => '?').join(', ');
  const threads = find(tables, 'threads');
  const cols = threads === undefined ? [] : tableColumns(db, threads);
  const [id, source] = [find(cols, 'id'), find(cols, 'source')];
  if (threads !== undefined && id !== undefined && source !== undefined) {
    const rows = db.prepare(`SELECT ${q(id)} AS id, ${q(source)} AS src FROM ${q(threads)} WHERE ${q(id)} IN (${marks}) AND ${q(source)} LIKE '%subagent%'`).all(...ids) as Array<{ id: unknown; src: unknown }>;
    for (const r of rows) if (typeof r.id === 'string' && subagentParent(r.src, null, r.id) !== null) out.add(r.id.toLowerCase());
  }
  return out;
}

// parent → children of one state database: its sub-agent threads' `source` parents (confirmed), and its spawn edges
// (to be confirmed by the child's own rollout head when its row does not say).
function spawnLinks(db: Database.Database, add: (parent: unknown, child: unknown) => void, edge: (parent: unknown, child: unknown) => void): void {
  const tables = tableNames(db);
  const edges = find(tables, 'thread_spawn_edges');
  if (edges !== undefined) {
    const cols = tableColumns(db, edges);
    const [p, c] = [find(cols, 'parent_thread_id'), find(cols, 'child_thread_id')];
    if (p !== undefined && c !== undefined) for (const r of db.prepare(`SELECT ${q(p)}, ${q(c)} FROM ${q(edges)}`).raw().all() as unknown[][]) edge(r[0], r[1]);
  }
  const layout = stateLayout(db);
  if (layout.kind !== 'known') return;
  const source = find(tableColumns(db, layout.table), 'source');
  if (source === undefined) return;
  const sql = `SELECT ${q(layout.id)}, ${q(source)} FROM ${q(layout.table)} WHERE ${q(source)} LIKE '%subagent%'`;
  for (const [id, src] of db.prepare(sql).raw().all() as unknown[][]) add(subagentParent(src, null, typeof id === 'string' ? id : null), id);
}

/**
 * The sub-agent threads spawned by the canonical id at any depth (children before grandchildren): from every state
 * database's `threads.source`, its spawn edges whose child's own rollout says it is a sub-agent, and — when no state
 * database can be trusted to list every thread
 * (`authoritative` false) — from the rollouts' first lines too (a child's `session_meta` names its parent). Cycle-safe and
 * bounded; never rejects.
 * @public
 */
export async function codexDescendants(fs: FileSystemPort, home: CodexHome, id: string, authoritative: boolean): Promise<string[]> {
  const children = new Map<string, Set<string>>();
  const edges = new Map<string, Set<string>>();
  const link = (into: Map<string, Set<string>>) => (parent: unknown, child: unknown): void => {
    const p = typeof parent === 'string' ? canonicalCodexId(parent) : null;
    const c = typeof child === 'string' ? canonicalCodexId(child) : null;
    if (p === null || c === null || p === c) return;
    let set = into.get(p);
    if (set === undefined) into.set(p, (set = new Set()));
    set.add(c);
  };
  const add = link(children);
  for (const db of (await codexDbs(fs, home)).filter((d) => d.state)) {
    await withReadonlyDb(db.path, { fs }, (h) => spawnLinks(h.db, add, link(edges))).catch(() => undefined);
  }
  if (!authoritative) {
    const files = (await scanRollouts(fs, home).catch(() => ({ files: [] }))).files;
    await mapLimit(files, HEADS_IN_FLIGHT, async (f) => {
      const st = await fs.lstat(f.path).catch(() => null);
      if (st?.kind !== 'file') return;
      const head = await readRolloutHead(fs, f.path);
      if (head?.parent !== undefined && head.parent !== '') add(head.parent, head.id ?? f.id);
    });
  }
  const out: string[] = [];
  const seen = new Set([id]);
  let frontier = [id];
  while (frontier.length > 0 && out.length < MAX_DESCENDANTS) {
    const next: string[] = [];
    for (const p of frontier) {
      for (const c of children.get(p) ?? []) if (!seen.has(c)) (seen.add(c), out.push(c), next.push(c));
      for (const c of edges.get(p) ?? []) if (!seen.has(c) && (await rolloutSaysSubagent(fs, home, c))) (seen.add(c), out.push(c), next.push(c));
    }
    frontier = next;
  }
  return out.slice(0, MAX_DESCENDANTS);
}

// True when a rollout of the id (found by name) starts with a sub-agent's session_meta.
async function rolloutSaysSubagent(fs: FileSystemPort, home: CodexHome, id: string): Promise<boolean> {
  for (const f of (await scanRollouts(fs, home, id).catch(() => ({ files: [] }))).files) {
    if ((await fs.lstat(f.path).catch(() => null))?.kind !== 'file') continue;
    if ((await readRolloutHead(fs, f.path))?.parent !== undefined) return true;
  }
  return false;
}
