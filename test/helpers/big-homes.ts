// Big agent homes for the status and purge-auto benchmarks and their tests: one home holding Claude, Codex and OpenCode stores in their
// real on-disk formats (Claude 2.1 transcripts under projects/<key>, Codex 0.171 rollouts in date dirs with the real
// state_5.sqlite schema, the real OpenCode 1.18.33 schema), sized by a scale factor (1 = 5,000 / 20,000 / 50,000).
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { AGENT_NAMES, type AgentName, ownKey } from '../../src/ids/agent-names.js';
import type { SessionRow } from '../../src/registry/session-row.js';
import { seedGemini } from '../../src/testing/sandbox/seed-gemini.js';
import { type AgyStage, buildAgyStage } from './adapter-agy-stage.js';
import { type GrokStage, materializeGrokStage } from './adapter-grok-stage.js';
import { type HermesRealStage, IDS, materializeHermesStage } from './adapter-hermes-real.js';
import { sesId, v1Schema } from './adapter-opencode-db.js';

const CODEX_FIXTURE = join(import.meta.dirname, '../fixtures/real/codex/06-after-sigkill/.codex');
const REAL_ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';
const REAL_CWD = '/home/dev/ws-codex';

/** A deterministic UUID (v7 shape for Codex, v4 shape for Claude) numbered `n` in the family `f`. */
export function uuidOf(f: number, n: number): string {
  const h = n.toString(16).padStart(12, '0');
  return `0190${f.toString(16).padStart(4, '0')}-${h.slice(0, 4)}-7${h.slice(4, 7)}-8${h.slice(7, 10)}-${h.slice(10)}${'a'.repeat(10)}`;
}

/** A Codex-like UUIDv7 minted at `ms` (its first 48 bits), numbered `n`. */
export function v7Of(ms: number, n: number): string {
  const t = ms.toString(16).padStart(12, '0');
  const h = n.toString(16).padStart(12, '0');
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${h.slice(0, 3)}-8${h.slice(3, 6)}-${h.slice(6)}${'b'.repeat(6)}`;
}

export interface BigHome {
  home: string;
  /** Workspaces of the generated conversations (each exists as a directory). */
  workspaces: string[];
  claude: { projects: string; ids: string[]; workspaceOf: (i: number) => string };
  codex: { db: string; ids: string[]; workspaceOf: (i: number) => string };
  opencode: { db: string; ids: string[]; workspaceOf: (i: number) => string };
}

/** Sizes at scale 1. */
export const BASE = { claude: 5_000, codex: 20_000, opencode: 50_000, projects: 50, workspaces: 40 };

/** Claude: `n` transcripts (a real-shaped head) over `projects` workspaces, with a todos file each as 2.1 writes. */
function claude(home: string, root: string, n: number, projects: number): BigHome['claude'] {
  const dir = join(home, '.claude', 'projects');
  const todos = join(home, '.claude', 'todos');
  mkdirSync(todos, { recursive: true });
  for (const d of ['sessions', 'session-env', 'telemetry', 'file-history']) mkdirSync(join(home, '.claude', d), { recursive: true });
  const workspaceOf = (i: number): string => join(root, 'work', `claude-${String(i % projects).padStart(3, '0')}`);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = uuidOf(1, i + 1);
    const ws = workspaceOf(i);
    const key = join(dir, claudeProjectKey(ws));
    if (i < projects) mkdirSync(ws, { recursive: true }), mkdirSync(key, { recursive: true });
    const ts = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
    const base = { sessionId: id, cwd: ws, version: '2.1.197', gitBranch: 'main', userType: 'external', entrypoint: 'cli' };
    const lines = [
      { type: 'queue-operation', operation: 'enqueue', timestamp: ts, sessionId: id, content: 'fix the test' },
      { parentUuid: null, isSidechain: false, type: 'user', message: { role: 'user', content: 'fix the test' }, uuid: id, timestamp: ts, ...base },
      { parentUuid: id, type: 'assistant', message: { role: 'assistant', content: 'x'.repeat(400) }, uuid: id, timestamp: ts, ...base },
    ];
    writeFileSync(join(key, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    writeFileSync(join(todos, `${id}-agent-${id}.json`), '[]');
  }
  return { projects: dir, ids, workspaceOf };
}

/** Codex: `n` rollouts (the real session_meta line, trimmed) in date dirs and their `threads` rows in the real state DB. */
function codex(home: string, root: string, n: number, workspaces: number): BigHome['codex'] {
  const dir = join(home, '.codex');
  const real = readFileSync(join(CODEX_FIXTURE, 'sessions/2026/11/30/rollout-2026-11-30T00-55-12-01a229f2-dd9f-7f71-b03f-29e4937c4596.jsonl'), 'utf8');
  // The real session_meta record with its long texts (base instructions …) cut to 400 characters.
  const meta = JSON.parse(real.slice(0, real.indexOf('\n'))) as { payload: Record<string, unknown> };
  for (const [k, v] of Object.entries(meta.payload)) if (typeof v === 'string' && v.length > 400) meta.payload[k] = v.slice(0, 400);
  const first = JSON.stringify(meta);
  const dbPath = join(dir, 'state_5.sqlite');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(CODEX_FIXTURE, 'state_5.sqlite'), dbPath);
  const db = new Database(dbPath);
  const template = db.prepare('SELECT * FROM threads WHERE id = ?').get(REAL_ID) as Record<string, unknown>;
  db.exec('DELETE FROM threads');
  const cols = Object.keys(template);
  const insert = db.prepare(`INSERT INTO threads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  const workspaceOf = (i: number): string => join(root, 'work', `codex-${String(i % workspaces).padStart(3, '0')}`);
  const ids: string[] = [];
  const base = Date.UTC(2026, 0, 1) / 1000;
  const days = new Set<string>();
  db.transaction(() => {
    for (let i = 0; i < n; i += 1) {
      const t = base + i * 600;
      const id = v7Of(t * 1000, i + 1);
      const cwd = workspaceOf(i);
      if (i < workspaces) mkdirSync(cwd, { recursive: true });
      const d = new Date(t * 1000);
      const day = join(dir, 'sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'));
      if (!days.has(day)) (mkdirSync(day, { recursive: true }), days.add(day));
      const path = join(day, `rollout-${d.toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`);
      writeFileSync(path, `${first.replaceAll(REAL_ID, id).replaceAll(REAL_CWD, cwd)}\n`);
      insert.run({ ...template, id, rollout_path: path, cwd, created_at: t, updated_at: t, created_at_ms: t * 1000, updated_at_ms: t * 1000, recency_at: t, recency_at_ms: t * 1000 });
      ids.push(id);
    }
  })();
  db.close();
  for (const d of ['shell_snapshots', 'thread-writer-locks', 'archived_sessions']) mkdirSync(join(dir, d), { recursive: true });
  return { db: dbPath, ids, workspaceOf };
}

/** OpenCode: `n` top-level sessions of the real 1.18.33 schema over `workspaces` directories. */
function opencode(home: string, root: string, n: number, workspaces: number): BigHome['opencode'] {
  const data = join(home, '.local/share/opencode');
  mkdirSync(data, { recursive: true });
  const dbPath = join(data, 'opencode.db');
  const db = new Database(dbPath);
  db.pragma('foreign_keys = OFF');
  for (const s of v1Schema()) db.exec(s);
  const ins = db.prepare("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', NULL, 's', ?, 't', '1.18.33', ?, ?)");
  const workspaceOf = (i: number): string => join(root, 'work', `opencode-${String(i % workspaces).padStart(3, '0')}`);
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < n; i += 1) {
      const id = sesId(i);
      if (i < workspaces) mkdirSync(workspaceOf(i), { recursive: true });
      const t = 1_790_000_000_000 + i * 1000;
      ins.run(id, workspaceOf(i), t, t);
      ids.push(id);
    }
  })();
  db.close();
  return { db: dbPath, ids, workspaceOf };
}

/** Lays out the three big stores under `<root>/home` at `scale`; the stores of files (Claude, Codex) at most at `fileCap`. */
export function bigHome(root: string, scale: number, fileCap = Infinity): BigHome {
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const files = Math.min(scale, fileCap);
  const c = claude(home, root, Math.round(BASE.claude * files), BASE.projects);
  c.ids.push(...Array.from({ length: Math.round(BASE.claude * files) }, (_, i) => uuidOf(1, i + 1)));
  const x = codex(home, root, Math.round(BASE.codex * files), BASE.workspaces);
  const o = opencode(home, root, Math.round(BASE.opencode * scale), BASE.workspaces);
  return { home, workspaces: [], claude: c, codex: x, opencode: o };
}

/** A big home with the three staged agents beside it, their registry rows and the env that finds them. */
export interface MixedHome {
  big: BigHome;
  grok: GrokStage;
  agy: AgyStage;
  hermes: HermesRealStage;
  env: Record<string, string>;
  rows: SessionRow[];
}

/** A registry row of `agent` recording `id`, its pane in `cwd`. */
export function rowOf(agent: AgentName, n: number, id: string, cwd: string): SessionRow {
  return { name: `${agent}-${n}`, agent, status: 'running', role: 'coder', [ownKey(agent)]: id, pane: { cwd } } as unknown as SessionRow;
}

/** The big home plus the real-format Grok, agy and Hermes stages beside it, and `count` registry rows over the seven agents (one in three checked against another workspace). */
export async function mixedHome(root: string, scale: number, count: number, fileCap = Infinity): Promise<MixedHome> {
  const big = bigHome(root, scale, fileCap);
  const grok = materializeGrokStage(root);
  const agy = await buildAgyStage(root);
  const hermes = materializeHermesStage('02-compressed', root);
  const grokIds = Object.entries(grok.expected.sessions).map(([id, s]) => ({ id, cwd: s.cwd }));
  const agyIds = agy.conversations.map((c) => ({ id: c.id, cwd: c.workspace ?? agy.wsA }));
  const hermesIds = [IDS.a1, IDS.a2, IDS.b1, IDS.a3_root].map((id, i) => ({ id, cwd: i % 2 === 0 ? hermes.wsA : hermes.wsB }));
  // Gemini CLI chat files in the big home itself, two in grok's first workspace and one in its second.
  const geminiIds = [grok.wsA, grok.wsA, grok.wsB].map((cwd, i) => {
    const id = `6e6e6e6e-0000-4000-8000-00000000000${i}`;
    seedGemini({ agent: 'gemini', home: big.home, cwd: realpathSync(cwd), id, now: 1796000000000 + i * 60_000, sqlite: 'checkpointed', prompt: 'hello', env: {} });
    return { id, cwd };
  });
  const rows: SessionRow[] = [];
  for (let n = 0; n < count; n += 1) {
    const k = Math.floor(n / AGENT_NAMES.length);
    const other = Math.floor(n / AGENT_NAMES.length) % 3 === 2;
    const agent = AGENT_NAMES[n % AGENT_NAMES.length] as AgentName;
    switch (agent) {
      case 'claude': rows.push(rowOf(agent, n, big.claude.ids[k * 7 % big.claude.ids.length] as string, big.claude.workspaceOf(k * 7 + (other ? 1 : 0)))); break;
      case 'codex': rows.push(rowOf(agent, n, big.codex.ids[k * 11 % big.codex.ids.length] as string, big.codex.workspaceOf(k * 11 + (other ? 1 : 0)))); break;
      case 'opencode': rows.push(rowOf(agent, n, big.opencode.ids[k * 13 % big.opencode.ids.length] as string, big.opencode.workspaceOf(k * 13 + (other ? 1 : 0)))); break;
      case 'grok': { const g = grokIds[k % grokIds.length] as { id: string; cwd: string }; rows.push(rowOf(agent, n, g.id, other ? grok.wsB : g.cwd)); break; }
      case 'agy': { const a = agyIds[k % agyIds.length] as { id: string; cwd: string }; rows.push(rowOf(agent, n, a.id, other ? agy.wsB : a.cwd)); break; }
      case 'hermes': { const h = hermesIds[k % hermesIds.length] as { id: string; cwd: string }; rows.push(rowOf(agent, n, h.id, h.cwd)); break; }
      case 'gemini': { const g = geminiIds[k % geminiIds.length] as { id: string; cwd: string }; rows.push(rowOf(agent, n, g.id, other ? grok.wsB : g.cwd)); break; }
      default: throw new Error(agent satisfies never);
    }
  }
  return { big, grok, agy, hermes, env: { HOME: big.home, PATH: '/nonexistent-mam-bin', HERMES_HOME: hermes.hermesHome }, rows };
}
