// Random Codex homes on real temp dirs with a state_5.sqlite of the real 0.171 schema (the real file, its threads
// replaced), and the answer a full scan gives: every rollout under the home read to its first line, the state DB used only
// for what only it can say (a sub-agent's own row, whether it lists every thread). The adapter's indexed answer must equal it.
import Database from 'better-sqlite3';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const REAL_STATE = join(import.meta.dirname, '../fixtures/real/codex/06-after-sigkill/.codex/state_5.sqlite');
const TEMPLATE_ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';

/** Which spelling of a workspace a thread records as its cwd. */
export type CwdChoice = 'real' | 'link' | 'other';

export interface GenThread {
  cwd: CwdChoice;
  archived: boolean;
  /** `present`: the row names the rollout; `missing`: no row; `stale`: the row names another home; `moved`: a wrong day dir of this home. */
  row: 'present' | 'missing' | 'stale' | 'moved';
  /** `row`: only the threads row says sub-agent; `both`: its rollout head says so too. */
  subagent: 'no' | 'row' | 'both';
  rollout: 'full' | 'none' | 'empty';
  /** Minutes after the base time. */
  minute: number;
}

export interface GenHome {
  threads: GenThread[];
  db: 'trusted' | 'incomplete' | 'none';
  /** Which spelling of the workspace the caller gives. */
  given: 'real' | 'link';
}

export interface BuiltHome {
  home: string;
  codex: string;
  workspace: string;
  ids: string[];
  ctx: { workspace: string; home: string; env: Record<string, string> };
}

const BASE_S = Date.UTC(2026, 10, 1) / 1000;

export function genId(n: number): string {
  const h = n.toString(16).padStart(12, '0');
  return `01a2${h.slice(0, 4)}-${h.slice(4, 8)}-7${h.slice(8, 11)}-8${h.slice(11)}00-${'b'.repeat(12)}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

export function genRolloutPath(codex: string, id: string, t: number, archived: boolean): string {
  const d = new Date(t * 1000);
  const name = `rollout-${d.toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`;
  if (archived) return join(codex, 'archived_sessions', name);
  return join(codex, 'sessions', String(d.getUTCFullYear()), pad2(d.getUTCMonth() + 1), pad2(d.getUTCDate()), name);
}

const PARENT = '01a20000-0000-7000-8000-00000000ffff';
const SUBAGENT_SOURCE = JSON.stringify({ subagent: { thread_spawn: { parent_thread_id: PARENT, depth: 1 } } });

/** Builds the home under `root` (which must be a fresh directory). */
export function buildHome(root: string, spec: GenHome): BuiltHome {
  const home = join(root, 'home');
  const codex = join(home, '.codex');
  const real = join(root, 'work', 'ws');
  const link = join(root, 'work', 'link');
  const other = join(root, 'work', 'other');
  for (const d of [codex, real, other, join(codex, 'sessions'), join(codex, 'archived_sessions')]) mkdirSync(d, { recursive: true });
  symlinkSync(real, link);
  const cwdOf = (c: CwdChoice): string => (c === 'real' ? real : c === 'link' ? link : other);
  const rows: Array<Record<string, unknown>> = [];
  const ids: string[] = [];
  spec.threads.forEach((t, i) => {
    const id = genId(i + 1);
    ids.push(id);
    const ts = BASE_S + t.minute * 60;
    const path = genRolloutPath(codex, id, ts, t.archived);
    const cwd = cwdOf(t.cwd);
    if (t.rollout !== 'none') {
      mkdirSync(dirname(path), { recursive: true });
      const payload: Record<string, unknown> = { session_id: t.subagent === 'both' ? PARENT : id, id, cwd, originator: 'codex_exec', cli_version: '0.171.0', base_instructions: { text: 'x'.repeat(200) } };
      if (t.subagent === 'both') payload['source'] = JSON.parse(SUBAGENT_SOURCE) as unknown;
      writeFileSync(path, t.rollout === 'empty' ? '' : `${JSON.stringify({ timestamp: 'x', type: 'session_meta', payload })}\n{"type":"turn"}\n`);
      utimesSync(path, ts, ts);
    }
    if (t.row === 'missing') return;
    const recorded = t.row === 'stale' ? genRolloutPath('/gone/old-home/.codex', id, ts, t.archived) : t.row === 'moved' ? path.replace(/sessions\/\d{4}\/\d\d\/\d\d/, 'sessions/1999/01/01').replace('archived_sessions/', 'sessions/1999/01/01/') : path;
    rows.push({ id, rollout_path: recorded, cwd, archived: t.archived ? 1 : 0, source: t.subagent === 'no' ? 'exec' : SUBAGENT_SOURCE, ts });
  });
  if (spec.db !== 'none') writeStateDb(join(codex, 'state_5.sqlite'), rows, spec.db === 'trusted');
  const workspace = spec.given === 'real' ? real : link;
  return { home, codex, workspace, ids, ctx: { workspace, home: home, env: { HOME: home, CODEX_HOME: codex } } };
}

/** The real state_5.sqlite with its threads replaced by `rows` (`{id, rollout_path, cwd, archived, source, ts}`). */
export function writeStateDb(path: string, rows: ReadonlyArray<Record<string, unknown>>, complete: boolean): void {
  copyFileSync(REAL_STATE, path);
  const db = new Database(path);
  try {
    const template = db.prepare('SELECT * FROM threads WHERE id = ?').get(TEMPLATE_ID) as Record<string, unknown>;
    db.exec('DELETE FROM threads; DELETE FROM thread_spawn_edges; DELETE FROM thread_dynamic_tools');
    const cols = Object.keys(template);
    const insert = db.prepare(`INSERT INTO threads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
    db.transaction(() => {
      for (const r of rows) {
        const ts = r['ts'] as number;
        const { ts: _ts, ...own } = r;
        insert.run({ ...template, ...own, created_at: ts, updated_at: ts, created_at_ms: ts * 1000, updated_at_ms: ts * 1000, recency_at: ts, recency_at_ms: ts * 1000 });
      }
    })();
    if (!complete) db.exec("UPDATE backfill_state SET status = 'running'");
  } finally {
    db.close();
  }
}

interface OracleRow {
  cwd: string;
  act: number;
  subagent: boolean;
}

function dbFacts(codex: string): { rows: Map<string, OracleRow[]>; trusted: boolean } {
  const rows = new Map<string, OracleRow[]>();
  let trusted = false;
  for (const name of readdirSync(codex).filter((n) => /^state(_\d+)?\.sqlite$/.test(n))) {
    const db = new Database(join(codex, name), { readonly: true });
    try {
      trusted = (db.prepare('SELECT status FROM backfill_state').pluck().all() as string[]).every((s) => s === 'complete');
      for (const r of db.prepare('SELECT id, cwd, source, updated_at_ms FROM threads').all() as Array<{ id: string; cwd: string; source: string; updated_at_ms: number }>) {
        const id = r.id.toLowerCase();
        rows.set(id, [...(rows.get(id) ?? []), { cwd: r.cwd, act: r.updated_at_ms, subagent: r.source.includes('"subagent"') }]);
      }
    } finally {
      db.close();
    }
  }
  return { rows, trusted };
}

function rollouts(dir: string, depth = 0): Array<{ id: string; path: string }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const path = join(dir, n);
    const m = /^rollout-.+-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(n);
    if (m !== null) return [{ id: m[1] as string, path }];
    return depth < 4 && lstatSync(path).isDirectory() ? rollouts(path, depth + 1) : [];
  });
}

function headOk(path: string, id: string, cwds: ReadonlySet<string>, vouched: boolean): number | null {
  const st = lstatSync(path);
  if (!st.isFile()) return null;
  const text = readFileSync(path, 'utf8');
  let head: { payload?: { id?: string; cwd?: string; session_id?: string; source?: unknown } };
  try {
    head = JSON.parse(text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'))) as typeof head;
  } catch {
    return null;
  }
  const p = head.payload ?? {};
  if (p.id?.toLowerCase() !== id || (p.session_id !== undefined && p.session_id.toLowerCase() !== id)) return null;
  if (typeof p.source === 'object' && p.source !== null && 'subagent' in p.source) return null;
  if (p.cwd === undefined ? !vouched : !cwds.has(p.cwd)) return null;
  return st.mtimeMs;
}

/** The workspace spellings (as given without a trailing slash, and its realpath), as the adapter compares them. */
export function spellings(workspace: string): Set<string> {
  const given = workspace.replace(/(.)\/+$/, '$1');
  try {
    return new Set([given, realpathSync(workspace)]);
  } catch {
    return new Set([given]);
  }
}

/** What a full scan says `discover` (newest first, `sinceMs` kept) and `verifyArtifact(id, 'verify')` answer. */
export function scanAnswer(codex: string, workspace: string, sinceMs?: number): { discover: string[]; verify: (id: string) => boolean } {
  const cwds = spellings(workspace);
  const { rows, trusted } = dbFacts(codex);
  const files = [...rollouts(join(codex, 'sessions')), ...rollouts(join(codex, 'archived_sessions'))];
  const found = new Map<string, number>();
  for (const f of files) {
    const own = rows.get(f.id) ?? [];
    if (own.some((r) => r.subagent)) continue;
    const mine = own.filter((r) => cwds.has(r.cwd));
    if (own.length > 0 ? mine.length === 0 : trusted) continue;
    const mtime = headOk(f.path, f.id, cwds, own.length > 0);
    if (mtime === null) continue;
    const act = Math.max(0, ...mine.map((r) => r.act)) || mtime;
    found.set(f.id, Math.max(found.get(f.id) ?? 0, act));
  }
  const discover = [...found]
    .filter(([, act]) => sinceMs === undefined || act >= sinceMs)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))
    .map(([id]) => id);
  const verify = (id: string): boolean => {
    const own = rows.get(id) ?? [];
    if (own.some((r) => r.subagent)) return false;
    if (own.length > 0 && !own.some((r) => cwds.has(r.cwd))) return false;
    return files.some((f) => f.id === id && headOk(f.path, id, cwds, own.length > 0) !== null);
  };
  return { discover, verify };
}
