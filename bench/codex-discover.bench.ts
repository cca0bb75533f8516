// Benchmark: CodexAdapter.discover and verifyArtifact against the LEAST work that gives the right answer — the workspace's
// realpath, one read-only open of state_5.sqlite, one indexed query on threads by cwd (sub-agent rows left out), one lstat
// per returned rollout (no rollout head read); for verify, the lookup by id and one lstat — interleaved in the same process,
// as ratios. At three store sizes (2,000 / 20,000 / 200,000 rollouts) with the same 500- and 5-thread workspaces, so the
// growth shows the cost follows the workspace's own conversations, not the store. Also at 20,000: no rollout head or whole
// rollout read, peak memory, and the spawns of one in-use check.
// Run: npx tsx bench/codex-discover.bench.ts   (writes bench/results/codex.md)
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { lstat, realpath } from 'node:fs/promises';
import { CodexAdapter } from '../src/agents/codex/codex-adapter.js';
import { NodeFileSystem } from '../src/node/node-fs.js';
import { nodePorts } from '../src/node/node-ports.js';
import { NodeProcessPort } from '../src/node/node-process.js';
import { SpyFileSystem } from '../test/helpers/adapter-codex-spy.js';
import { spawnCounter } from '../test/helpers/proc-spawn-counter.js';
import { ms, type Ratio, ratioCell, ratioOf } from './bench-kit.js';
import { type KeptStore, keptStore } from './kept-store.js';

// BENCH_CODEX_SCALES=2000,20000 for a quicker run; the middle size is the one the limits apply to.
const SCALES = (process.env['BENCH_CODEX_SCALES'] ?? '2000,20000,200000').split(',').map(Number);
const MAIN_SCALE = SCALES[Math.floor(SCALES.length / 2)] as number;
const WORKSPACES = 40;
const BIG = 500; // threads of the measured workspace, spread over the whole store
const SMALL = 5;
const SUBAGENTS = 10; // sub-agent threads recorded under the big workspace (never a conversation of their own)
const ROUNDS = 31;
const SMALL_ROUNDS = 301;
const LIMIT = 1.5;
const MEMORY_LIMIT_MB = 64;
const FIXTURE = join(import.meta.dirname, '../test/fixtures/real/codex/06-after-sigkill/.codex');
const REAL_ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';
const REAL_CWD = '/home/dev/ws-codex';
const SUB_SOURCE = JSON.stringify({ subagent: { thread_spawn: { parent_thread_id: REAL_ID, depth: 1 } } });

function uuid7(n: number): string {
  const h = n.toString(16).padStart(12, '0');
  return `0190${h.slice(0, 4)}-${h.slice(4, 8)}-7${h.slice(8, 11)}-8${h.slice(11)}00-${'a'.repeat(12)}`;
}

interface Home {
  home: string;
  big: string;
  small: string;
  db: string;
  files: number;
  genS: number;
}

// Rollouts of the measured workspaces open with the real 26.8 KB session_meta line; the others (never opened by the
// measured calls, nor by the baseline) with a short one, so 200,000 files fit the disk and the time.
function generate(root: string, rollouts: number): Home {
  const t0 = performance.now();
  const home = join(root, 'home');
  const codex = join(home, '.codex');
  const real = readFileSync(join(FIXTURE, 'sessions/2026/11/30/rollout-2026-11-30T00-55-12-01a229f2-dd9f-7f71-b03f-29e4937c4596.jsonl'), 'utf8');
  const firstLine = real.slice(0, real.indexOf('\n'));
  const dbPath = join(codex, 'state_5.sqlite');
  mkdirSync(codex, { recursive: true });
  copyFileSync(join(FIXTURE, 'state_5.sqlite'), dbPath);
  const db = new Database(dbPath);
  const template = db.prepare('SELECT * FROM threads WHERE id = ?').get(REAL_ID) as Record<string, unknown>;
  db.exec('DELETE FROM threads');
  db.pragma('journal_mode = WAL');
  const cols = Object.keys(template);
  const insert = db.prepare(`INSERT INTO threads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  const work = join(root, 'work');
  const step = Math.floor(rollouts / (BIG + SUBAGENTS));
  const wsOf = (n: number): { cwd: string; sub: boolean; measured: boolean } => {
    if (n % step === 0 && n / step < BIG + SUBAGENTS) return { cwd: join(work, 'big'), sub: n / step >= BIG, measured: true };
    if (n % step === 1 && (n - 1) / step < SMALL) return { cwd: join(work, 'small'), sub: false, measured: true };
    return { cwd: join(work, `ws-${String(n % WORKSPACES).padStart(2, '0')}`), sub: false, measured: false };
  };
  const base = Date.UTC(2024, 0, 1) / 1000;
  const days = new Set<string>();
  db.transaction(() => {
    for (let n = 0; n < rollouts; n += 1) {
      const id = uuid7(n + 1);
      const w = wsOf(n);
      const t = base + n * 600;
      const d = new Date(t * 1000);
      const day = join(codex, 'sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'));
      const path = join(day, `rollout-${d.toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`);
      if (!days.has(day)) (mkdirSync(day, { recursive: true }), days.add(day));
      const head = w.measured ? firstLine.replaceAll(REAL_ID, id).replaceAll(REAL_CWD, w.cwd) : JSON.stringify({ type: 'session_meta', payload: { id, cwd: w.cwd } });
      writeFileSync(path, `${head}\n{"type":"turn"}\n`);
      utimesSync(path, t, t);
      insert.run({ ...template, id, rollout_path: path, cwd: w.cwd, source: w.sub ? SUB_SOURCE : 'exec', created_at: t, updated_at: t, created_at_ms: t * 1000, updated_at_ms: t * 1000, recency_at: t, recency_at_ms: t * 1000 });
    }
  })();
  db.close();
  for (const d of ['shell_snapshots', 'thread-writer-locks', 'archived_sessions', join('work', 'big'), join('work', 'small')]) mkdirSync(d.startsWith('work') ? join(root, d) : join(codex, d), { recursive: true });
  // A home at rest (Codex not writing it this very second): the state DB and its directory were last changed a minute ago,
  // so the adapter may remember its listing and schema facts under their lstats (it does not for files changed in the last 3 s).
  const rest = Math.floor(Date.now() / 1000) - 60;
  for (const p of [dbPath, codex]) utimesSync(p, rest, rest);
  return { home, big: join(work, 'big'), small: join(work, 'small'), db: dbPath, files: rollouts, genS: (performance.now() - t0) / 1000 };
}

const open = (db: string): Database.Database => new Database(`${pathToFileURL(db).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });

// An immutable open is right only with no -wal/-journal beside the file (else it misses committed frames), and any other
// read-only open may create a -shm: the least a reader that leaves the directory as it found it must do is look (lstat).
async function lookedAt(db: string, workspace: string): Promise<string> {
  const [real, ...sidecars] = await Promise.all([realpath(workspace), ...['-wal', '-shm', '-journal'].map((x) => lstat(db + x).then(() => true, () => false))]);
  if (sidecars.some(Boolean)) throw new Error('the bench database has sidecars');
  return real as string;
}

// The least work for discover: realpath and the sidecar look, one open, the indexed query (the (archived, cwd, …)
// index), one lstat per row.
async function leastDiscover(db: string, workspace: string): Promise<string[]> {
  const real = await lookedAt(db, workspace);
  const conn = open(db);
  let rows: Array<{ id: string; rollout_path: string; updated_at_ms: number }>;
  try {
    rows = conn
      .prepare("SELECT id, rollout_path, updated_at_ms FROM threads WHERE archived IN (0, 1) AND cwd IN (?, ?) AND source NOT LIKE '%subagent%' ORDER BY updated_at_ms DESC, id DESC")
      .all(workspace, real) as typeof rows;
  } finally {
    conn.close();
  }
  const ok = await Promise.all(rows.map((r) => lstat(r.rollout_path).then((st) => st.isFile(), () => false)));
  return rows.filter((_, i) => ok[i]).map((r) => r.id);
}

// The least work for verify: realpath and the sidecar look, one open, the lookup by the primary key, one lstat.
async function leastVerify(db: string, workspace: string, id: string): Promise<boolean> {
  const real = await lookedAt(db, workspace);
  const conn = open(db);
  let row: { cwd: string; rollout_path: string; source: string } | undefined;
  try {
    row = conn.prepare('SELECT cwd, rollout_path, source FROM threads WHERE id = ?').get(id) as typeof row;
  } finally {
    conn.close();
  }
  if (row === undefined || (row.cwd !== workspace && row.cwd !== real) || row.source.includes('subagent')) return false;
  return lstat(row.rollout_path).then((st) => st.isFile(), () => false);
}

const DISCOVER_SQL = "SELECT id, rollout_path, updated_at_ms FROM threads WHERE archived IN (0, 1) AND cwd IN (?, ?) AND source NOT LIKE '%subagent%' ORDER BY updated_at_ms DESC, id DESC";
const VERIFY_SQL = 'SELECT cwd, rollout_path, source FROM threads WHERE id = ?';

// The same least work for a reader that keeps its connection between calls (as the adapter does on the real ports):
// realpath and the two looks (the database, its directory) at once, the statement on the kept connection, one lstat per row.
async function keptDiscover(store: KeptStore, workspace: string): Promise<string[]> {
  const [real, conn] = await Promise.all([realpath(workspace), store.conn()]);
  const rows = store.stmt(conn, DISCOVER_SQL).all(workspace, real) as Array<{ id: string; rollout_path: string }>;
  const ok = await Promise.all(rows.map((r) => lstat(r.rollout_path).then((st) => st.isFile(), () => false)));
  return rows.filter((_, i) => ok[i]).map((r) => r.id);
}

async function keptVerify(store: KeptStore, workspace: string, id: string): Promise<boolean> {
  const [real, conn] = await Promise.all([realpath(workspace), store.conn()]);
  const row = store.stmt(conn, VERIFY_SQL).get(id) as { cwd: string; rollout_path: string; source: string } | undefined;
  if (row === undefined || (row.cwd !== workspace && row.cwd !== real) || row.source.includes('subagent')) return false;
  return lstat(row.rollout_path).then((st) => st.isFile(), () => false);
}

interface ScaleResult {
  rollouts: number;
  files: number;
  genS: number;
  big: Ratio;
  small: Ratio;
  verify: Ratio;
  kept: { big: Ratio; small: Ratio; verify: Ratio };
}

const codex = new CodexAdapter(nodePorts());
const ctxOf = (h: Home, workspace: string): { workspace: string; home: string; env: Record<string, string> } => ({ workspace, home: h.home, env: { CODEX_HOME: join(h.home, '.codex') } });
const results: ScaleResult[] = [];
const extra: string[] = [];
let pass = true;

for (const scale of SCALES) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-bench-codex-')));
  try {
    const h = generate(root, scale);
    const big = ctxOf(h, h.big);
    const small = ctxOf(h, h.small);
    const want = await leastDiscover(h.db, h.big);
    const got = await codex.discover(big);
    if (JSON.stringify(got) !== JSON.stringify(want) || got.length !== BIG) throw new Error(`discover disagrees with the baseline at ${scale}: ${got.length} vs ${want.length}`);
    if (JSON.stringify(await codex.discover(small)) !== JSON.stringify(await leastDiscover(h.db, h.small))) throw new Error('small workspace');
    const one = got[Math.floor(got.length / 2)] as string;
    if (!(await codex.verifyArtifact(one, big)) || !(await leastVerify(h.db, h.big, one))) throw new Error('verify');

    if (scale === MAIN_SCALE) {
      // What discover reads: no rollout head, no whole rollout; one lstat per own rollout.
      const spy = new SpyFileSystem(new NodeFileSystem());
      const spied = new CodexAdapter({ ...nodePorts(), fs: spy });
      await spied.discover(big);
      const onRollouts = spy.calls.filter((c) => c.path.endsWith('.jsonl'));
      const heads = onRollouts.filter((c) => c.op === 'readHead' || c.op === 'readFile' || c.op === 'readText').length;
      const lstats = onRollouts.filter((c) => c.op === 'lstat').length;
      const listed = spy.calls.filter((c) => c.op === 'readdir').length;
      spy.calls.length = 0;
      await spied.verifyArtifact(one, big);
      const vHeads = spy.calls.filter((c) => c.path.endsWith('.jsonl') && c.op.startsWith('read')).length;
      const vLstats = spy.calls.filter((c) => c.path.endsWith('.jsonl') && c.op === 'lstat').length;
      // Peak memory over the process baseline, sampled while discover runs.
      const m0 = process.memoryUsage();
      let peakRss = m0.rss;
      let peakHeap = m0.heapUsed;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      }, 2);
      for (let i = 0; i < 10; i += 1) await codex.discover(big);
      clearInterval(sampler);
      const rssMb = (peakRss - m0.rss) / 2 ** 20;
      const heapMb = (peakHeap - m0.heapUsed) / 2 ** 20;
      // Spawns of one in-use check: the portable path (ps + lsof) and the Linux one (/proc + lsof).
      const counter = await spawnCounter(join(root, 'spawns'));
      const spawns: string[] = [];
      for (const useProc of [false, true]) {
        const before = (await counter.calls()).length;
        await new CodexAdapter({ ...nodePorts(), proc: new NodeProcessPort({ env: { PATH: counter.path }, useProc }) }).conversationInUse(one, big);
        const calls = (await counter.calls()).slice(before);
        if (calls.length > 2) pass = false;
        spawns.push(`${calls.join(' + ') || 'none'}${useProc ? ' (/proc)' : ' (ps)'}`);
      }
      if (heads !== 0 || vHeads !== 0 || rssMb > MEMORY_LIMIT_MB || heapMb > MEMORY_LIMIT_MB) pass = false;
      extra.push(
        `| rollout heads or whole rollouts read by discover (${BIG} threads) / by verifyArtifact | ${heads} / ${vHeads} (lstat of rollouts: ${lstats} / ${vLstats}; directory listings: ${listed}) |`,
        `| peak memory over the process baseline during 10 discovers (rss / heapUsed, limit ${MEMORY_LIMIT_MB} MB) | ${rssMb.toFixed(1)} MB / ${heapMb.toFixed(1)} MB |`,
        `| spawns of one in-use check (limit 2) | ${spawns.join('; ')} |`,
      );
    }

    const rBig = await ratioOf(() => codex.discover(big), () => leastDiscover(h.db, h.big), ROUNDS);
    const rSmall = await ratioOf(() => codex.discover(small), () => leastDiscover(h.db, h.small), SMALL_ROUNDS);
    const rVerify = await ratioOf(() => codex.verifyArtifact(one, big), () => leastVerify(h.db, h.big, one), SMALL_ROUNDS);
    const store = keptStore(h.db);
    if (JSON.stringify(await keptDiscover(store, h.big)) !== JSON.stringify(want) || !(await keptVerify(store, h.big, one))) throw new Error('kept baseline');
    const kept = {
      big: await ratioOf(() => codex.discover(big), () => keptDiscover(store, h.big), ROUNDS),
      small: await ratioOf(() => codex.discover(small), () => keptDiscover(store, h.small), SMALL_ROUNDS),
      verify: await ratioOf(() => codex.verifyArtifact(one, big), () => keptVerify(store, h.big, one), SMALL_ROUNDS),
    };
    store.close();
    results.push({ rollouts: scale, files: h.files, genS: h.genS, big: rBig, small: rSmall, verify: rVerify, kept });
    process.stdout.write(`codex ${scale}: big ${rBig.r.toFixed(2)}× small ${rSmall.r.toFixed(2)}× verify ${rVerify.r.toFixed(2)}×; kept baseline: ${kept.big.r.toFixed(2)}× ${kept.small.r.toFixed(2)}× ${kept.verify.r.toFixed(2)}×\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const main = results.find((r) => r.rollouts === MAIN_SCALE) as ScaleResult;
if ([main.big, main.small, main.verify, main.kept.big, main.kept.small, main.kept.verify].some((x) => x.r > LIMIT)) pass = false;
const md = [
  '## codex: discover and verifyArtifact from the state DB',
  '',
  `Generated homes of ${SCALES.map((s) => s.toLocaleString('en')).join(' / ')} rollout files over ${WORKSPACES + 2} workspaces, each with its \`threads\` row in a \`state_5.sqlite\` of the real 0.171 schema and indexes (the real file's migrations and completed backfill; WAL mode, closed cleanly; the DB and its directory last changed a minute before the measure, a home at rest). The measured workspaces are the same at every size: ${BIG} threads (plus ${SUBAGENTS} sub-agent threads recorded under it, left out by both sides) spread over the whole store, and ${SMALL} threads. Their rollouts open with the real 26.8 KB session_meta line; the others' with a short one (neither side opens them). Node ${process.version}; ${ROUNDS} interleaved rounds for ${BIG} threads, ${SMALL_ROUNDS} for ${SMALL} threads and for verify, after 3 warm-up rounds; times are medians, the ratio is the median of the rounds' ratios.`,
  '',
  'Baseline = the least work that gives the right answer without changing the directory: `realpath` of the workspace and, at once, an `lstat` of each sidecar name (`-wal`, `-shm`, `-journal`: an immutable open is right only without them, any other read-only open may create a `-shm`), one immutable open, one indexed query on `threads` by cwd (`archived IN (0, 1) AND cwd IN (given, realpath)`, sub-agent rows left out), one `lstat` per returned rollout (Node\'s async `fs.promises`, all at once, as a library that must not block the event loop does); for verify, the lookup by id and one `lstat`. No rollout head is read by either side.',
  '',
  `| rollouts in the store | discover ${BIG} threads: adapter / baseline | ratio | discover ${SMALL} threads: adapter / baseline | ratio | verifyArtifact: adapter / baseline | ratio |`,
  '| ---: | ---: | --- | ---: | --- | ---: | --- |',
  ...results.map((r) => `| ${r.rollouts.toLocaleString('en')} (generated in ${r.genS.toFixed(0)} s) | ${ms(r.big.a)} / ${ms(r.big.f)} | ${ratioCell(r.big, LIMIT)} | ${ms(r.small.a)} / ${ms(r.small.f)} | ${ratioCell(r.small, LIMIT)} | ${ms(r.verify.a)} / ${ms(r.verify.f)} | ${ratioCell(r.verify, LIMIT)} |`),
  '',
  'The same against the least work of a reader that keeps its connection between calls, as the adapter does on the real ports (a store at rest, read `immutable`, stays open): `realpath` of the workspace and, at once, an `lstat` of the database and of its directory (a change of either reopens, after an `lstat` of the `-wal` and `-journal` names: while the directory\'s stamp stands no sidecar was made), the statement prepared once on the kept connection, one `lstat` per returned rollout.',
  '',
  `| rollouts in the store | discover ${BIG}: adapter / kept baseline | ratio | discover ${SMALL}: adapter / kept baseline | ratio | verifyArtifact: adapter / kept baseline | ratio |`,
  '| ---: | ---: | --- | ---: | --- | ---: | --- |',
  ...results.map((r) => `| ${r.rollouts.toLocaleString('en')} | ${ms(r.kept.big.a)} / ${ms(r.kept.big.f)} | ${ratioCell(r.kept.big, LIMIT)} | ${ms(r.kept.small.a)} / ${ms(r.kept.small.f)} | ${ratioCell(r.kept.small, LIMIT)} | ${ms(r.kept.verify.a)} / ${ms(r.kept.verify.f)} | ${ratioCell(r.kept.verify, LIMIT)} |`),
  '',
  `Growth: from ${SCALES[0]?.toLocaleString('en')} to ${SCALES.at(-1)?.toLocaleString('en')} rollouts (the store ${Math.round((SCALES.at(-1) ?? 1) / (SCALES[0] ?? 1))}× larger), the ${BIG}-thread discover goes ${ms(results[0]?.big.a ?? 0)} → ${ms(results.at(-1)?.big.a ?? 0)}, the ${SMALL}-thread one ${ms(results[0]?.small.a ?? 0)} → ${ms(results.at(-1)?.small.a ?? 0)}, verify ${ms(results[0]?.verify.a ?? 0)} → ${ms(results.at(-1)?.verify.a ?? 0)}; at one store size the ${BIG}-thread discover costs ${(main.big.a / main.small.a).toFixed(0)}× the ${SMALL}-thread one — the cost follows the workspace's own conversations, not the store.`,
  '',
  `| at ${MAIN_SCALE.toLocaleString('en')} rollouts | value |`,
  '| --- | ---: |',
  ...extra,
  `| verdict (limit ${LIMIT}× at ${MAIN_SCALE.toLocaleString('en')}) | **${pass ? 'PASS' : 'FAIL'}** |`,
  '',
  `Run ${new Date().toISOString()} on ${cpus().length} cores, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min): the machine was shared, so the times are inflated and the ratios noisy; the p25–p75 show the spread.`,
  '',
].join('\n');
process.stdout.write(`${md}\n`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'codex.md'), md);
if (!pass) process.exitCode = 1;
