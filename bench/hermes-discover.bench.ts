// Benchmark: HermesAdapter.verifyArtifact and discover on a generated state.db (the real sessions schema) against the
// LEAST work that gives the right answer, interleaved in the same process, as ratios, at 2,000 / 20,000 / 200,000
// sessions with the same measured workspace. verify: the id's row by the primary key, its chain's continuations by the
// index on parent_session_id. discover: Hermes has no index on cwd (and ACP sessions keep theirs in model_config JSON),
// so the least work is one scan of `sessions` filtered in SQL, then each hit's chain by the indexes.
// Run: npx tsx bench/hermes-discover.bench.ts   (writes bench/results/hermes.md)
import '../src/sqlite/uri-support.js';
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { HermesAdapter } from '../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../src/node/node-ports.js';
import { ms, type Ratio, ratioCell, ratioOf } from './bench-kit.js';
import { type KeptStore, keptStore } from './kept-store.js';

const SCALES = (process.env['BENCH_HERMES_SCALES'] ?? '2000,20000,200000').split(',').map(Number);
const MAIN_SCALE = SCALES[Math.floor(SCALES.length / 2)] as number;
const FIXTURE = join(import.meta.dirname, '../test/fixtures/real/hermes/03-delegate/home-checkpointed/.hermes/state.db');
const OWN = 50; // conversations of the measured workspace: each a chain of 3 sessions (two compressions)
const ROUNDS = 101;
const LIMIT = 1.5;

// Hermes ids: `YYYYMMDD_HHMMSS_<hex>`.
const sid = (i: number): string => `20260101_120000_${i.toString(16).padStart(8, '0')}`;

function build(root: string, sessions: number): { home: string; db: string; ws: string; tip: string; genS: number } {
  const t0 = performance.now();
  const home = join(root, 'home');
  const hermes = join(home, '.hermes');
  const ws = join(root, 'ws');
  mkdirSync(hermes, { recursive: true });
  mkdirSync(ws, { recursive: true });
  // The real database (every table, index and trigger), its rows removed, then the generated sessions.
  const dbPath = join(hermes, 'state.db');
  copyFileSync(FIXTURE, dbPath);
  const db = new Database(dbPath);
  db.pragma('foreign_keys = OFF');
  db.pragma('journal_mode = DELETE');
  for (const t of db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND sql NOT LIKE '%VIRTUAL%'").pluck().all() as string[]) {
    if (!/_(data|idx|docsize|config|content)$/.test(t)) db.exec(`DELETE FROM "${t}"`);
  }
  const ins = db.prepare('INSERT INTO sessions (id, source, parent_session_id, started_at, ended_at, end_reason, cwd) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const step = Math.floor(sessions / OWN);
  let tip = '';
  db.transaction(() => {
    for (let i = 0; i < sessions; i += 1) {
      const t = 1_790_000_000 + i;
      const k = Math.floor(i / step);
      const slot = i % step;
      if (k < OWN && slot < 3) {
        // root (cwd), compression child, compression grandchild (the tip; children have no cwd)
        ins.run(sid(i), 'cli', slot === 0 ? null : sid(i - 1), t, slot < 2 ? t + 1 : null, slot < 2 ? 'compression' : null, slot === 0 ? ws : null);
        if (slot === 2 && k === Math.floor(OWN / 2)) tip = sid(i);
      } else {
        ins.run(sid(i), 'cli', null, t, t + 1, 'user', join(root, 'other', `ws-${i % 40}`));
      }
    }
  })();
  db.close();
  // A store at rest (Hermes not writing it this very second): last changed a minute ago, so the adapter may remember its
  // columns and recorded directories under its lstats (it does not for a file changed in the last 3 s).
  const rest = Math.floor(Date.now() / 1000) - 60;
  for (const p of [dbPath, dirname(dbPath)]) utimesSync(p, rest, rest);
  return { home, db: dbPath, ws, tip, genS: (performance.now() - t0) / 1000 };
}

const openDb = (db: string): Database.Database => new Database(`${pathToFileURL(db).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });

async function lookedAt(db: string, ws: string): Promise<string> {
  const [real, ...sidecars] = await Promise.all([realpath(ws), ...['-wal', '-shm', '-journal'].map((x) => lstat(db + x).then(() => true, () => false))]);
  if (sidecars.some(Boolean)) throw new Error('the bench database has sidecars');
  return real as string;
}

type Prep = (sql: string) => Database.Statement;

// verify: the row by id, its root up the parents, the chain down the compression children, the root's or tip's cwd.
function verifyOn(prep: Prep, ws: string, real: string, id: string): boolean {
  const byId = prep('SELECT id, parent_session_id AS parent, end_reason AS reason, cwd, started_at AS t FROM sessions WHERE id = ?');
  const kids = prep("SELECT id, parent_session_id AS parent, end_reason AS reason, cwd, started_at AS t FROM sessions WHERE parent_session_id = ? ORDER BY started_at DESC, id DESC LIMIT 1");
  type R = { id: string; parent: string | null; reason: string | null; cwd: string | null };
  let root = byId.get(id) as R | undefined;
  if (root === undefined) return false;
  for (let p = root.parent === null ? undefined : (byId.get(root.parent) as R | undefined); p !== undefined && p.reason === 'compression'; p = p.parent === null ? undefined : (byId.get(p.parent) as R | undefined)) root = p;
  let tip = root;
  for (let next = tip.reason === 'compression' ? (kids.get(tip.id) as R | undefined) : undefined; next !== undefined; next = tip.reason === 'compression' ? (kids.get(tip.id) as R | undefined) : undefined) tip = next;
  return [root.cwd, tip.cwd].some((d) => d === ws || d === real);
}

// discover: one scan filtered in SQL, then each hit's chain down to its tip by the parent index.
function discoverOn(prep: Prep, ws: string, real: string): string[] {
  const hits = prep('SELECT id, end_reason AS reason, started_at AS t FROM sessions WHERE (cwd IN (?, ?) OR git_repo_root IN (?, ?)) AND parent_session_id IS NULL').all(ws, real, ws, real) as Array<{ id: string; reason: string | null; t: number }>;
  const kids = prep('SELECT id, end_reason AS reason, started_at AS t FROM sessions WHERE parent_session_id = ? ORDER BY started_at DESC, id DESC LIMIT 1');
  const tips = hits.map((h) => {
    let tip = h;
    for (let next = tip.reason === 'compression' ? (kids.get(tip.id) as typeof h | undefined) : undefined; next !== undefined; next = tip.reason === 'compression' ? (kids.get(tip.id) as typeof h | undefined) : undefined) tip = next;
    return tip;
  });
  return tips.sort((a, b) => b.t - a.t || a.id.localeCompare(b.id)).map((t) => t.id);
}

// One open per call.
async function onFreshOpen<T>(db: string, ws: string, run: (prep: Prep, real: string) => T): Promise<T> {
  const real = await lookedAt(db, ws);
  const c = openDb(db);
  try {
    return run((sql) => c.prepare(sql), real);
  } finally {
    c.close();
  }
}

// A reader that keeps its connection between calls (as the adapter does on the real ports): realpath and the four
// looks at once, the statements prepared once on the kept connection.
async function onKept<T>(store: KeptStore, ws: string, run: (prep: Prep, real: string) => T): Promise<T> {
  const [real, c] = await Promise.all([realpath(ws), store.conn()]);
  return run((sql) => store.stmt(c, sql), real);
}

const leastVerify = (db: string, ws: string, id: string): Promise<boolean> => onFreshOpen(db, ws, (prep, real) => verifyOn(prep, ws, real, id));
const leastDiscover = (db: string, ws: string): Promise<string[]> => onFreshOpen(db, ws, (prep, real) => discoverOn(prep, ws, real));

interface Row {
  sessions: number;
  genS: number;
  verify: Ratio;
  discover: Ratio;
  kept: { verify: Ratio; discover: Ratio };
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-bench-hermes-')));
const rows: Row[] = [];
try {
  const adapter = new HermesAdapter(nodePorts());
  for (const sessions of SCALES) {
    const base = join(root, String(sessions));
    const b = build(base, sessions);
    const ctx = { workspace: b.ws, home: b.home, env: { HOME: b.home } };
    const want = await leastDiscover(b.db, b.ws);
    const got = await adapter.discover(ctx);
    if (JSON.stringify(got) !== JSON.stringify(want) || want.length !== OWN) throw new Error(`discover disagrees with the baseline: ${got.length} vs ${want.length}`);
    if (!(await adapter.verifyArtifact(b.tip, ctx)) || !(await leastVerify(b.db, b.ws, b.tip))) throw new Error('verify');
    const verify = await ratioOf(() => adapter.verifyArtifact(b.tip, ctx), () => leastVerify(b.db, b.ws, b.tip), ROUNDS, 5);
    const rounds = Math.max(11, Math.floor(ROUNDS / Math.max(1, sessions / 2_000)));
    const discover = await ratioOf(() => adapter.discover(ctx), () => leastDiscover(b.db, b.ws), rounds, 3);
    const store = keptStore(b.db);
    if (JSON.stringify(await onKept(store, b.ws, (prep, real) => discoverOn(prep, b.ws, real))) !== JSON.stringify(want)) throw new Error('kept baseline');
    const kept = {
      verify: await ratioOf(() => adapter.verifyArtifact(b.tip, ctx), () => onKept(store, b.ws, (prep, real) => verifyOn(prep, b.ws, real, b.tip)), ROUNDS, 5),
      discover: await ratioOf(() => adapter.discover(ctx), () => onKept(store, b.ws, (prep, real) => discoverOn(prep, b.ws, real)), rounds, 3),
    };
    store.close();
    rows.push({ sessions, genS: b.genS, verify, discover, kept });
    process.stdout.write(`hermes ${sessions}: verify ${verify.r.toFixed(2)}× discover ${discover.r.toFixed(2)}×; kept baseline: verify ${kept.verify.r.toFixed(2)}× discover ${kept.discover.r.toFixed(2)}×\n`);
    rmSync(base, { recursive: true, force: true });
  }
  const main = rows.find((r) => r.sessions === MAIN_SCALE) as Row;
  const pass = main.verify.r <= LIMIT && main.discover.r <= LIMIT && main.kept.verify.r <= LIMIT && main.kept.discover.r <= LIMIT;
  const md = [
    '## hermes: verifyArtifact and discover from state.db',
    '',
    `Generated \`state.db\` (the real sessions schema and indexes: primary key, \`parent_session_id\`; none on \`cwd\`) of ${SCALES.map((s) => s.toLocaleString('en')).join(' / ')} sessions; the measured workspace has ${OWN} conversations at every size, each a compression chain of 3 sessions (the root holds the cwd, the tip is the id discover returns). Node ${process.version}; ${ROUNDS} interleaved rounds for verify (fewer for the scans), after warm-up; medians, the ratio is the median of the rounds' ratios.`,
    '',
    'Baselines (the least work for the right answer, without changing the directory): `realpath` + an `lstat` of each sidecar name, one immutable open; verify = the row by the primary key, its root up the parents, its chain down by the parent index; discover = one scan of `sessions` filtered in SQL (`cwd`/`git_repo_root` of the workspace — there is no index to use), then each hit\'s chain down by the parent index.',
    '',
    '| sessions | verifyArtifact: adapter / baseline | ratio | discover: adapter / baseline | ratio |',
    '| ---: | ---: | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.sessions.toLocaleString('en')} | ${ms(r.verify.a)} / ${ms(r.verify.f)} | ${ratioCell(r.verify, LIMIT)} | ${ms(r.discover.a)} / ${ms(r.discover.f)} | ${r.discover.r.toFixed(2)}× (p25–p75 ${r.discover.p25.toFixed(2)}–${r.discover.p75.toFixed(2)}) |`),
    '',
    'The same against the least work of a reader that keeps its connection between calls, as the adapter does on the real ports (the store is at rest): `realpath` of the workspace and, at once, an `lstat` of the database and of its directory (a change of either reopens, after an `lstat` of the `-wal` and `-journal` names: while the directory\'s stamp stands no sidecar was made), the statements prepared once on the kept connection.',
    '',
    '| sessions | verifyArtifact: adapter / kept baseline | ratio | discover: adapter / kept baseline | ratio |',
    '| ---: | ---: | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.sessions.toLocaleString('en')} | ${ms(r.kept.verify.a)} / ${ms(r.kept.verify.f)} | ${ratioCell(r.kept.verify, LIMIT)} | ${ms(r.kept.discover.a)} / ${ms(r.kept.discover.f)} | ${ratioCell(r.kept.discover, LIMIT)} |`),
    '',
    `Growth: verify reads the id's neighbourhood by the indexes, so it stays flat as the store grows. discover reads no row it does not need into JS: SQLite lists the distinct recorded directories (\`cwd\`, \`git_repo_root\`, and the ACP cwd of the rows whose \`model_config\` could hold one) in one scan — remembered with the columns under the store's lstats once settled (the store here is at rest: last changed a minute before), so a later discover skips that scan —, then returns the rows recording a matching one in a second scan (the one the baseline does), and only their conversations are read by the primary key and the parent index. What the adapter does beyond the baseline: each distinct recorded directory is looked at (a recorded directory that resolves to the workspace is the workspace — the rule the baseline leaves out): one \`stat\` each, a realpath only for one of the workspace's own device and inode; here the 40 other workspaces' directories, 40 stats per discover, which is most of the difference at the small sizes. With no index on \`cwd\` both sides scan the table in SQLite's C loop, so both grow with the store. Verdict (verify and discover against both baselines, limit ${LIMIT}× at ${MAIN_SCALE.toLocaleString('en')}): **${pass ? 'PASS' : 'FAIL'}**.`,
    '',
    `Run ${new Date().toISOString()} on ${cpus().length} cores, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min): the machine was shared, so the times are inflated and the ratios noisy; the p25–p75 show the spread.`,
    '',
  ].join('\n');
  process.stdout.write(`${md}\n`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'hermes.md'), md);
  if (!pass) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
