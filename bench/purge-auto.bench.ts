// Benchmark: `purge('auto', id)` resolution (PurgeService.resolve: which agents have any artifact of the id) on a home of
// 5,000 Claude transcripts, 20,000 Codex rollouts (real state_5.sqlite schema) and 50,000 OpenCode sessions (real 1.18.33
// schema), against the cheapest lookups that tell each agent's ownership (raw node:fs and better-sqlite3, same run,
// interleaved, as a ratio) — an answer must be right for leftovers too, so a "no" costs what proving it costs:
// - Claude: a readdir of projects/ and one lstat of `<key>/<id>.jsonl` each; when none is there, one lstat of each name
//   the id gives exactly (`<key>/<id>/`, session-env/, file-history/, tasks/, debug/) and one readdir of each place only a
//   listing reaches (todos/ — the id is a prefix; telemetry/ — it is inside the name; the temp root and its claude-* dirs;
//   jobs/ and sessions/ — their files are read only when present, none here; the config dir — unknown stores).
// - Codex: the open (the three sidecar lstats that tell the read is safe, then the open) and the primary-key query; when
//   no row, the state DB's other thread-id tables by id, the sub-agent rows by the source index and the backfill status
//   (one statement each), the lock's lstat, one readdir of shell_snapshots/ and archived_sessions/, and of the date dirs of
//   the id's own time (sessions/, its year, month and the days UTC−12…UTC+14 give).
// - OpenCode (its `ses_` ids only): the open (sidecar lstats, open) and one query by id.
// - agy, Grok, Hermes (no store here): one lstat of their root.
// In AGENT_NAMES order up to the first owner (resolve's answer; resolve asks in that order too and stops there).
// Also the old way (one hasArtifacts per agent in turn, fresh adapters). The same at 1/10 and 10× the store size (Claude
// and Codex files capped at 4×: 10× is 250,000 files, minutes to write).
// Run: npx tsx bench/purge-auto.bench.ts   (writes bench/results/purge-auto.md)
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { getAdapter } from '../src/agents/get-adapter.js';
import { AGENT_NAMES, type AgentName } from '../src/ids/agent-names.js';
import { isPlausibleId } from '../src/ids/agent-id.js';
import { nodePorts } from '../src/node/node-ports.js';
import { PurgeService } from '../src/purge/purge-service.js';
import { type BigHome, bigHome, v7Of } from '../test/helpers/big-homes.js';
import { ratioOf, timed } from './bench-kit.js';

// BENCH_SCALES=0.1 runs one size only (a quick look).
const SCALES = (process.env['BENCH_SCALES'] ?? '0.1,1,10').split(',').map(Number);
const FILE_CAP = 4;
const ROUNDS = 21;
const LIMIT = 2;

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(() => true, () => false);
}

// A read-only open as safe as the library's: the sidecars looked at (none here, so the file is read in place, immutable).
async function ro(path: string): Promise<Database.Database> {
  const side = await Promise.all(['-wal', '-shm', '-journal'].map((x) => exists(path + x)));
  if (side.includes(true)) throw new Error(`${path} has sidecars: the bench home never does`);
  return new Database(`${pathToFileURL(path).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });
}

async function listing(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

// Claude's "no leftovers" once the transcript is not there: every name the id gives, every place only a listing reaches.
async function claudeLeftovers(big: BigHome, keys: string[], id: string): Promise<boolean> {
  const cfg = join(big.home, '.claude');
  const tmp = tmpdir();
  const found = await Promise.all([
    ...keys.map((k) => exists(join(big.claude.projects, k, id))),
    ...['session-env', 'file-history', 'tasks'].map((d) => exists(join(cfg, d, id))),
    exists(join(cfg, 'debug', `${id}.txt`)),
    listing(join(cfg, 'todos')).then((n) => n.some((x) => x.startsWith(`${id}-`))),
    listing(join(cfg, 'telemetry')).then((n) => n.some((x) => x.includes(`.${id}.`))),
    readdir(tmp, { withFileTypes: true }).then((es) => Promise.all(es.filter((e) => e.isDirectory() && e.name.startsWith('claude-')).map((e) => listing(join(tmp, e.name))))).then(() => false),
    listing(join(cfg, 'jobs')).then((n) => n.length > 0),
    listing(join(cfg, 'sessions')).then((n) => n.length > 0),
    listing(cfg).then((n) => n.some((x) => /\.(db|sqlite3?)$/i.test(x))),
  ]);
  return found.includes(true);
}

// Codex's "no leftovers" once the primary key says no row: the other id tables, the lock, the snapshots, the date dirs.
async function codexLeftovers(big: BigHome, db: Database.Database, id: string): Promise<boolean> {
  const others = db
    .prepare(
      'SELECT EXISTS (SELECT 1 FROM thread_dynamic_tools WHERE thread_id = @id) OR EXISTS (SELECT 1 FROM thread_spawn_edges WHERE parent_thread_id = @id) OR EXISTS (SELECT 1 FROM thread_spawn_edges WHERE child_thread_id = @id) OR EXISTS (SELECT 1 FROM thread_attachments WHERE thread_id = @id) OR EXISTS (SELECT 1 FROM guardian_review_feedback WHERE thread_id = @id) OR EXISTS (SELECT 1 FROM thread_read_receipts WHERE thread_id = @id) OR EXISTS (SELECT 1 FROM session_model_ids WHERE session_id = @id) OR EXISTS (SELECT 1 FROM rollout_migration_skipped_rollouts WHERE rollout_path LIKE @pattern)',
    )
    .pluck()
    .get({ id, pattern: `%-${id}.jsonl` });
  const sub = db.prepare(`SELECT id FROM threads WHERE source >= '{"subagent"' AND source < '{"subagent#' AND instr(source, ?) > 0`).all(id);
  const complete = db.prepare('SELECT status FROM backfill_state').pluck().all().every((x) => x === 'complete');
  if (others === 1 || sub.length > 0 || !complete) return true;
  const codex = join(big.home, '.codex');
  const ms = Number.parseInt(`${id.slice(0, 8)}${id.slice(9, 13)}`, 16);
  const days = [...new Set([-12, 0, 14].map((h) => new Date(ms + h * 3_600_000).toISOString().slice(0, 10)))].map((d) => d.split('-'));
  const dirs = new Set([join(codex, 'sessions'), ...days.flatMap(([y, m, d]) => [join(codex, 'sessions', y as string), join(codex, 'sessions', y as string, m as string), join(codex, 'sessions', y as string, m as string, d as string)])]);
  const found = await Promise.all([
    exists(join(codex, 'thread-writer-locks', `${id}.lock`)),
    listing(join(codex, 'shell_snapshots')).then((n) => n.some((x) => x.startsWith(`${id}.`))),
    ...[join(codex, 'archived_sessions'), ...dirs].map((d) => listing(d).then((n) => n.some((x) => x.endsWith(`-${id}.jsonl`)))),
  ]);
  return found.includes(true);
}

// The floor: the agents in AGENT_NAMES order, each by the least work that tells (see the top of the file), up to the first
// that owns the id — resolve's answer is that agent, so no later one needs asking.
async function cheapest(big: BigHome, id: string): Promise<AgentName | null> {
  if (isPlausibleId('claude', id)) {
    const keys = await readdir(big.claude.projects);
    const hit = await Promise.all(keys.map((k) => exists(join(big.claude.projects, k, `${id}.jsonl`))));
    if (hit.includes(true) || (await claudeLeftovers(big, keys, id))) return 'claude';
  }
  if (isPlausibleId('agy', id) && (await exists(join(big.home, '.gemini')))) return 'agy';
  if (isPlausibleId('codex', id)) {
    const db = await ro(big.codex.db);
    try {
      if (db.prepare('SELECT 1 FROM threads WHERE id = ?').get(id) !== undefined || (await codexLeftovers(big, db, id))) return 'codex';
    } finally {
      db.close();
    }
  }
  if (isPlausibleId('grok', id) && (await exists(join(big.home, '.grok')))) return 'grok';
  if (isPlausibleId('hermes', id) && (await exists(join(big.home, '.hermes')))) return 'hermes';
  if (isPlausibleId('opencode', id)) {
    const db = await ro(big.opencode.db);
    try {
      if (db.prepare('SELECT 1 FROM session WHERE id = ?').get(id) !== undefined) return 'opencode';
    } finally {
      db.close();
    }
  }
  return null;
}

async function oneByOne(id: string, ctx: { workspace: string; home: string; env: Record<string, string> }): Promise<AgentName[]> {
  const out: AgentName[] = [];
  for (const agent of AGENT_NAMES) if (isPlausibleId(agent, id) && (await getAdapter(agent, { ports: nodePorts({ env: ctx.env }) }).hasArtifacts(id, ctx))) out.push(agent);
  return out;
}

const lines: string[] = [];
const summary: string[] = [];
let failed = false;
for (const scale of SCALES) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-bench-auto-')));
  try {
    const t0 = performance.now();
    const big = bigHome(root, scale, FILE_CAP);
    const genS = (performance.now() - t0) / 1000;
    // The stores at rest, as between an agent's turns: last changed longer ago than the settle time (3 s), so what the
    // ports keep under the files' lstats (connections, probes) may be used.
    await new Promise((r) => setTimeout(r, 3500));
    const env = { HOME: big.home, PATH: '/nonexistent-mam-bin' };
    const ctx = { workspace: big.home, home: big.home, env };
    const service = new PurgeService({ ports: nodePorts({ env }) });
    const mid = (ids: string[]): string => ids[Math.floor(ids.length / 2)] as string;
    const ids: Array<[string, string]> = [
      ['a Claude transcript', mid(big.claude.ids)],
      ['a Codex thread', mid(big.codex.ids)],
      ['an OpenCode session', mid(big.opencode.ids)],
      ['an id no agent has', v7Of(Date.UTC(2026, 2, 3), 424242)],
    ];
    const counts = `${big.claude.ids.length.toLocaleString('en-US')} / ${big.codex.ids.length.toLocaleString('en-US')} / ${big.opencode.ids.length.toLocaleString('en-US')}`;
    for (const [what, id] of ids) {
      const want = await cheapest(big, id);
      const got = await service.resolve(id, ctx);
      const old = await oneByOne(id, ctx);
      if (want !== got || (old[0] ?? null) !== got) throw new Error(`${what}: resolve gave ${got}, the lookups ${want}, hasArtifacts ${old.join(',')}`);
      const m = await ratioOf(() => service.resolve(id, ctx), () => cheapest(big, id), ROUNDS);
      const before = await timed(() => oneByOne(id, ctx));
      const ok = scale !== 1 || m.r <= LIMIT;
      if (!ok) failed = true;
      lines.push(`| ${scale}× (${counts}) | ${what} | ${m.a.toFixed(2)} ms | ${m.f.toFixed(2)} ms | **${m.r.toFixed(2)}×** (p25 ${m.p25.toFixed(2)}, p75 ${m.p75.toFixed(2)}) | ${before.toFixed(1)} ms |`);
    }
    summary.push(`${scale}×: home generated in ${genS.toFixed(1)} s`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
const load = loadavg().map((x) => x.toFixed(2)).join(', ');
const md = [
  "## purge('auto', id) resolution",
  '',
  `Run ${new Date().toISOString()}, load average at the end ${load} (2 cores shared with other work). PurgeService.resolve`,
  '(the agents asked in AGENT_NAMES order up to the first owner, each by id or name where its store allows: Claude the',
  "transcript by name, then each leftover place once; Codex each database once by id, then its lock, snapshots and the date",
  "dirs of the id's own time) against the cheapest lookups that tell the same answer, a \"no\" included (the top of",
  'bench/purge-auto.bench.ts lists them). Stores: Claude transcripts / Codex rollouts / OpenCode sessions; 10× has the',
  `Claude and Codex files at ${FILE_CAP}× (writing 250,000 files takes minutes), the OpenCode database at 10×. ${ROUNDS} interleaved rounds, medians and`,
  'the p25–p75 of the per-round ratio; "before" is one hasArtifacts per agent in turn on fresh adapters (the full scans), one run.',
  '',
  '| store size | id | resolve | cheapest lookups | ratio | before |',
  '| --- | --- | --- | --- | --- | --- |',
  ...lines,
  '',
  summary.join('; ') + '.',
  `Target ≤ ${LIMIT}× at 1×: ${failed ? 'NOT met (see bench/RESULTS.md)' : 'met'}.`,
].join('\n');
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'purge-auto.md'), md + '\n');
process.stdout.write(md + '\n');
