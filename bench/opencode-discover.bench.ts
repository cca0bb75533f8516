// Benchmark: OpencodeAdapter.discover and verifyArtifact against the LEAST work that gives the right answer — the
// workspace's realpath and a look at the sidecar names, one immutable read-only open, one query for the workspace's
// top-level sessions (for verify: the lookup by the primary key) — interleaved in the same process, as ratios. OpenCode
// keeps sessions only in opencode.db (no per-session file to check), so that is the whole answer. At 5,000 / 50,000 /
// 500,000 sessions with the same 125- and 5-session workspaces: with an index on session.directory the cost follows the
// workspace; the 1.x schema as shipped has none, so the least work there is a scan and both sides grow with the store.
// Run: npx tsx bench/opencode-discover.bench.ts   (writes bench/results/opencode.md)
import '../src/sqlite/uri-support.js';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { OpencodeAdapter } from '../src/agents/opencode/opencode-adapter.js';
import { nodePorts } from '../src/node/node-ports.js';
import { sesId, v1Schema } from '../test/helpers/adapter-opencode-db.js';
import { installFakeOpencode } from '../test/helpers/adapter-opencode-fake-cli.js';
import { ms, type Ratio, ratioCell, ratioOf } from './bench-kit.js';
import { type KeptStore, keptStore } from './kept-store.js';

// BENCH_OPENCODE_SCALES=5000,50000 for a quicker run; the middle size is the one the limits apply to.
const SCALES = (process.env['BENCH_OPENCODE_SCALES'] ?? '5000,50000,500000').split(',').map(Number);
const MAIN_SCALE = SCALES[Math.floor(SCALES.length / 2)] as number;
const WORKSPACES = 400;
const BIG = 125; // top-level sessions of the measured workspace, the same at every size (and as many child sessions)
const SMALL = 5;
const CHILD_EVERY = 5;
const ROUNDS = 101;
const LIMIT = 1.5;

interface Built {
  db: string;
  big: string;
  small: string;
  genS: number;
}

function build(base: string, sessions: number, index: boolean): Built {
  const t0 = performance.now();
  const data = join(base, 'home', '.local/share/opencode');
  const wsRoot = join(base, 'ws');
  mkdirSync(data, { recursive: true });
  const big = join(wsRoot, 'big');
  const small = join(wsRoot, 'small');
  for (const w of [big, small]) mkdirSync(w, { recursive: true });
  const db = join(data, 'opencode.db');
  const h = new Database(db);
  h.pragma('foreign_keys = OFF');
  for (const s of v1Schema()) h.exec(s);
  if (index) h.exec('CREATE INDEX session_directory_idx ON session (directory)');
  const ins = h.prepare("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 's', ?, 't', '1.18.33', ?, ?)");
  // The measured workspaces' sessions are spread over the whole store (the first slots of every step), each big one
  // followed by a child session in the same directory.
  const step = Math.floor(sessions / BIG);
  h.transaction(() => {
    for (let i = 0; i < sessions; i++) {
      const t = 1_790_000_000_000 + i * 1000;
      const [k, slot] = [Math.floor(i / step), i % step];
      let dir = join(wsRoot, `ws-${i % WORKSPACES}`);
      let parent: string | null = i % CHILD_EVERY === CHILD_EVERY - 1 ? sesId(i - 1) : null;
      if (k < BIG && slot === 0) [dir, parent] = [big, null];
      else if (k < BIG && slot === 1) [dir, parent] = [big, sesId(i - 1)];
      else if (k < SMALL && slot === 2) [dir, parent] = [small, null];
      ins.run(sesId(i), parent, dir, t, t);
    }
  })();
  h.close();
  return { db, big, small, genS: (performance.now() - t0) / 1000 };
}

const openDb = (db: string): Database.Database => new Database(`${pathToFileURL(db).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });

// realpath and, at once, an lstat of each sidecar name (an immutable open is right only without them).
async function lookedAt(db: string, workspace: string): Promise<string> {
  const [real, ...sidecars] = await Promise.all([realpath(workspace), ...['-wal', '-shm', '-journal'].map((x) => lstat(db + x).then(() => true, () => false))]);
  if (sidecars.some(Boolean)) throw new Error('the bench database has sidecars');
  return real as string;
}

async function leastDiscover(db: string, ws: string): Promise<string[]> {
  const real = await lookedAt(db, ws);
  const c = openDb(db);
  try {
    return c.prepare("SELECT id FROM session WHERE directory IN (?, ?) AND (parent_id IS NULL OR parent_id = '') ORDER BY time_created DESC, id ASC").pluck().all(ws, real) as string[];
  } finally {
    c.close();
  }
}

async function leastVerify(db: string, ws: string, id: string): Promise<boolean> {
  const real = await lookedAt(db, ws);
  const c = openDb(db);
  try {
    const r = c.prepare('SELECT directory, parent_id FROM session WHERE id = ?').get(id) as { directory: string; parent_id: string | null } | undefined;
    return r !== undefined && (r.parent_id === null || r.parent_id === '') && (r.directory === ws || r.directory === real);
  } finally {
    c.close();
  }
}

const DISCOVER_SQL = "SELECT id FROM session WHERE directory IN (?, ?) AND (parent_id IS NULL OR parent_id = '') ORDER BY time_created DESC, id ASC";
const VERIFY_SQL = 'SELECT directory, parent_id FROM session WHERE id = ?';

// The same least work for a reader that keeps its connection between calls (as the adapter does on the real ports):
// realpath and the two looks (the database, its directory) at once, the statement on the kept connection.
async function keptDiscover(store: KeptStore, ws: string): Promise<string[]> {
  const [real, c] = await Promise.all([realpath(ws), store.conn()]);
  return store.stmt(c, DISCOVER_SQL).pluck().all(ws, real) as string[];
}

async function keptVerify(store: KeptStore, ws: string, id: string): Promise<boolean> {
  const [real, c] = await Promise.all([realpath(ws), store.conn()]);
  const r = store.stmt(c, VERIFY_SQL).get(id) as { directory: string; parent_id: string | null } | undefined;
  return r !== undefined && (r.parent_id === null || r.parent_id === '') && (r.directory === ws || r.directory === real);
}

interface Row {
  scenario: string;
  sessions: number;
  found: number;
  genS: number;
  big: Ratio;
  small: Ratio;
  verify: Ratio;
  kept: { big: Ratio; small: Ratio; verify: Ratio };
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-bench-')));
const rows: Row[] = [];
try {
  const adapter = new OpencodeAdapter(nodePorts());
  for (const [scenario, index] of [['1.x schema + index on session.directory', true], ['1.x schema as shipped (no index on directory)', false]] as const) {
    for (const sessions of SCALES) {
      const base = join(root, `${index ? 'ix' : 'scan'}-${sessions}`);
      const b = build(base, sessions, index);
      // A store at rest (OpenCode not writing it this very second): last changed a minute ago, so the adapter may keep
      // its connection between calls (it would not for a store changed within the last 3 s).
      const rest = Date.now() / 1000 - 60;
      for (const p of [b.db, dirname(b.db)]) utimesSync(p, rest, rest);
      // A real `opencode` on PATH answers `debug paths` once; the answer is kept, as in a real run.
      installFakeOpencode(join(base, 'bin'), { spyLog: join(base, 'spy.log') });
      const home = join(base, 'home');
      const ctxOf = (ws: string): { workspace: string; home: string; env: Record<string, string> } => ({ workspace: ws, home: home, env: { HOME: home, PATH: join(base, 'bin') } });
      const want = await leastDiscover(b.db, b.big);
      const got = await adapter.discover(ctxOf(b.big));
      if (JSON.stringify(got) !== JSON.stringify(want) || want.length !== BIG) throw new Error(`discover disagrees with the baseline: ${got.length} vs ${want.length}`);
      if (JSON.stringify(await adapter.discover(ctxOf(b.small))) !== JSON.stringify(await leastDiscover(b.db, b.small))) throw new Error('small workspace');
      const one = want[Math.floor(want.length / 2)] as string;
      if (!(await adapter.verifyArtifact(one, ctxOf(b.big))) || !(await leastVerify(b.db, b.big, one))) throw new Error('verify');
      const rounds = index ? ROUNDS : Math.max(11, Math.floor(ROUNDS / Math.max(1, sessions / 5_000)));
      const big = await ratioOf(() => adapter.discover(ctxOf(b.big)), () => leastDiscover(b.db, b.big), rounds, 5);
      const small = await ratioOf(() => adapter.discover(ctxOf(b.small)), () => leastDiscover(b.db, b.small), rounds, 5);
      const verify = await ratioOf(() => adapter.verifyArtifact(one, ctxOf(b.big)), () => leastVerify(b.db, b.big, one), ROUNDS, 5);
      const store = keptStore(b.db);
      if (JSON.stringify(await keptDiscover(store, b.big)) !== JSON.stringify(want) || !(await keptVerify(store, b.big, one))) throw new Error('kept baseline');
      const kept = {
        big: await ratioOf(() => adapter.discover(ctxOf(b.big)), () => keptDiscover(store, b.big), rounds, 5),
        small: await ratioOf(() => adapter.discover(ctxOf(b.small)), () => keptDiscover(store, b.small), rounds, 5),
        verify: await ratioOf(() => adapter.verifyArtifact(one, ctxOf(b.big)), () => keptVerify(store, b.big, one), ROUNDS, 5),
      };
      store.close();
      rows.push({ scenario, sessions, found: want.length, genS: b.genS, big, small, verify, kept });
      process.stdout.write(`opencode ${scenario} ${sessions}: big ${big.r.toFixed(2)}× small ${small.r.toFixed(2)}× verify ${verify.r.toFixed(2)}×; kept baseline: ${kept.big.r.toFixed(2)}× ${kept.small.r.toFixed(2)}× ${kept.verify.r.toFixed(2)}×\n`);
      rmSync(base, { recursive: true, force: true });
    }
  }
  const main = rows.filter((r) => r.sessions === MAIN_SCALE);
  const pass = main.every((r) => [r.big, r.small, r.verify, r.kept.big, r.kept.small, r.kept.verify].every((x) => x.r <= LIMIT));
  const md = [
    '## opencode: discover and verifyArtifact from opencode.db',
    '',
    `Generated \`opencode.db\` (the real 1.x schema) of ${SCALES.map((s) => s.toLocaleString('en')).join(' / ')} sessions over ${WORKSPACES} workspaces (every ${CHILD_EVERY}th a child session); the measured workspaces are the same at every size: ${BIG} top-level sessions (each with a child session in the same directory) and ${SMALL}, spread over the store. Node ${process.version}; ${ROUNDS} interleaved rounds (fewer for the scans of the big stores) after 5 warm-up rounds; times are medians, the ratio is the median of the rounds' ratios.`,
    '',
    'Baseline = the least work that gives the right answer without changing the directory: `realpath` of the workspace and, at once, an `lstat` of each sidecar name, one immutable open, one query for the workspace\'s top-level sessions (for verify, the lookup by the primary key). Sessions live only in the database, so no file is checked. "discover" = `OpencodeAdapter.discover` (agent env, binary lookup, cached `debug paths` answer, workspace realpath, read-only open, layout read once per schema, the query).',
    '',
    `| database | sessions | discover ${BIG}: adapter / baseline | ratio | discover ${SMALL}: adapter / baseline | ratio | verifyArtifact: adapter / baseline | ratio |`,
    '| --- | ---: | ---: | --- | ---: | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.scenario} | ${r.sessions.toLocaleString('en')} | ${ms(r.big.a)} / ${ms(r.big.f)} | ${ratioCell(r.big, LIMIT)} | ${ms(r.small.a)} / ${ms(r.small.f)} | ${ratioCell(r.small, LIMIT)} | ${ms(r.verify.a)} / ${ms(r.verify.f)} | ${ratioCell(r.verify, LIMIT)} |`),
    '',
    'The same against the least work of a reader that keeps its connection between calls, as the adapter does on the real ports (the store and its directory are at rest: last changed a minute before): `realpath` of the workspace and, at once, an `lstat` of the database and of its directory (a change of either reopens, after an `lstat` of the `-wal` and `-journal` names: while the directory\'s stamp stands no sidecar was made), the statement prepared once on the kept connection.',
    '',
    `| database | sessions | discover ${BIG}: adapter / kept baseline | ratio | discover ${SMALL}: adapter / kept baseline | ratio | verifyArtifact: adapter / kept baseline | ratio |`,
    '| --- | ---: | ---: | --- | ---: | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.scenario} | ${r.sessions.toLocaleString('en')} | ${ms(r.kept.big.a)} / ${ms(r.kept.big.f)} | ${ratioCell(r.kept.big, LIMIT)} | ${ms(r.kept.small.a)} / ${ms(r.kept.small.f)} | ${ratioCell(r.kept.small, LIMIT)} | ${ms(r.kept.verify.a)} / ${ms(r.kept.verify.f)} | ${ratioCell(r.kept.verify, LIMIT)} |`),
    '',
    'Growth: with the index, discover and verify stay flat from the smallest store to the largest (they follow the workspace\'s own sessions); without it (as OpenCode 1.x ships) the least work is a scan of `session`, and both the baseline and the adapter grow with the store — an adapter cannot answer faster than the store\'s own indexes allow. verify is a primary-key lookup in both schemas.',
    `Verdict (limit ${LIMIT}× at ${MAIN_SCALE.toLocaleString('en')} sessions): **${pass ? 'PASS' : 'FAIL'}**.`,
    '',
    `Run ${new Date().toISOString()} on ${cpus().length} cores, load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min): the machine was shared, so the times are inflated and the ratios noisy; the p25–p75 show the spread.`,
    '',
  ].join('\n');
  process.stdout.write(`${md}\n`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'opencode.md'), md);
  if (!pass) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
