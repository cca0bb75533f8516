// Benchmark: CodexAdapter.discover for one workspace in a generated Codex home of 20,000 rollouts (each opening with the
// real ~26 KB session_meta line) and their `threads` rows in a state DB of the real 0.171 schema, against the minimal work
// discovery cannot avoid — one indexed query on threads by cwd, then each of those rollouts read up to its first newline
// and parsed — measured in the same run, interleaved, as a ratio. Also: discover never reads a whole rollout, its peak
// memory over the process baseline, and the spawns of one in-use check.
// Run: npx tsx bench/codex-discover.bench.ts   (writes bench/results/codex.md)
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CodexAdapter } from '../src/adapters/codex/codex-adapter.js';
import { NodeFileSystem } from '../src/node/node-fs.js';
import { nodePorts } from '../src/node/node-ports.js';
import { NodeProcessPort } from '../src/node/node-process.js';
import { SpyFileSystem } from '../test/helpers/adapter-codex-spy.js';
import { spawnCounter } from '../test/helpers/proc-spawn-counter.js';

const ROLLOUTS = 20_000;
const WORKSPACES = 100;
const TARGET = 200; // threads of the measured workspace (the rest spread over the others)
const ROUNDS = 31;
const SMALL_ROUNDS = 301; // a 5-thread discover takes ~1 ms: more rounds, so the median is not the noise of a busy machine
const LIMIT = 1.5;
const MEMORY_LIMIT_MB = 64;
const FIXTURE = join(import.meta.dirname, '../test/fixtures/real/codex/06-after-sigkill/.codex');
const REAL_ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';
const REAL_CWD = '/home/dev/ws-codex';

function uuid7(n: number): string {
  const h = n.toString(16).padStart(12, '0');
  return `0190${h.slice(0, 4)}-${h.slice(4, 8)}-7${h.slice(8, 11)}-8${h.slice(11)}00-${'a'.repeat(12)}`;
}

function generate(root: string): { home: string; workspace: string; small: string; db: string } {
  const home = join(root, 'home');
  const codex = join(home, '.codex');
  const real = readFileSync(join(FIXTURE, 'sessions/2026/11/30/rollout-2026-11-30T00-55-12-01a229f2-dd9f-7f71-b03f-29e4937c4596.jsonl'), 'utf8');
  const firstLine = real.slice(0, real.indexOf('\n'));
  const rest = real.slice(real.indexOf('\n') + 1).slice(0, 40_000);
  const dbPath = join(codex, 'state_5.sqlite');
  mkdirSync(codex, { recursive: true });
  // The real database (schema, indexes, migrations, backfill state) without its threads, then 20,000 of them.
  copyFileSync(join(FIXTURE, 'state_5.sqlite'), dbPath);
  const db = new Database(dbPath);
  const template = db.prepare('SELECT * FROM threads WHERE id = ?').get(REAL_ID) as Record<string, unknown>;
  db.exec('DELETE FROM threads');
  db.pragma('journal_mode = WAL');
  const cols = Object.keys(template);
  const insert = db.prepare(`INSERT INTO threads (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  const wsOf = (n: number): string => join(root, 'work', n < TARGET ? 'target' : n < TARGET + 5 ? 'small' : `ws-${String(n % WORKSPACES).padStart(3, '0')}`);
  const base = Date.UTC(2026, 0, 1) / 1000;
  db.transaction(() => {
    for (let n = 0; n < ROLLOUTS; n += 1) {
      const id = uuid7(n + 1);
      const cwd = wsOf(n);
      const t = base + n * 600;
      const d = new Date(t * 1000);
      const day = join(codex, 'sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'));
      const path = join(day, `rollout-${d.toISOString().slice(0, 19).replaceAll(':', '-')}-${id}.jsonl`);
      mkdirSync(day, { recursive: true });
      writeFileSync(path, `${firstLine.replaceAll(REAL_ID, id).replaceAll(REAL_CWD, cwd)}\n${rest}`);
      utimesSync(path, t, t);
      insert.run({ ...template, id, rollout_path: path, cwd, created_at: t, updated_at: t, created_at_ms: t * 1000, updated_at_ms: t * 1000, recency_at: t, recency_at_ms: t * 1000 });
    }
  })();
  db.close();
  for (const d of ['shell_snapshots', 'thread-writer-locks', 'archived_sessions']) mkdirSync(join(codex, d), { recursive: true });
  return { home, workspace: join(root, 'work', 'target'), small: join(root, 'work', 'small'), db: dbPath };
}

// The floor: one indexed query on threads by cwd, then each rollout read (16 KiB chunks) up to its first newline, parsed.
async function minimal(db: string, workspace: string): Promise<string[]> {
  const conn = new Database(`${pathToFileURL(db).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });
  let rows: Array<{ id: string; rollout_path: string; updated_at_ms: number }>;
  try {
    rows = conn.prepare('SELECT id, rollout_path, updated_at_ms FROM threads WHERE archived IN (0, 1) AND cwd = ?').all(workspace) as typeof rows;
  } finally {
    conn.close();
  }
  const ok = await Promise.all(
    rows.map(async (r) => {
      const fh = await open(r.rollout_path, 'r');
      try {
        const chunks: Buffer[] = [];
        for (let pos = 0; ; ) {
          const buf = Buffer.alloc(16 * 1024);
          const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
          const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
          chunks.push(buf.subarray(0, nl < 0 ? bytesRead : nl));
          if (nl >= 0 || bytesRead === 0) break;
          pos += bytesRead;
        }
        const rec = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { payload: { id: string; cwd: string } };
        return rec.payload.id === r.id && rec.payload.cwd === workspace ? r : null;
      } finally {
        await fh.close();
      }
    }),
  );
  return ok.filter((r) => r !== null).sort((a, b) => b.updated_at_ms - a.updated_at_ms).map((r) => r.id);
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
}
const median = (xs: number[]): number => quantile(xs, 0.5);

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function ratioOf(adapterRun: () => Promise<unknown>, floorRun: () => Promise<unknown>, rounds = ROUNDS): Promise<{ a: number; f: number; r: number; p25: number; p75: number }> {
  const a: number[] = [];
  const f: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < rounds + 3; i += 1) {
    // Interleaved, order alternating, so both sides see the same cache and load; the first rounds warm up.
    const first = i % 2 === 0;
    const x = first ? await timed(adapterRun) : 0;
    const y = await timed(floorRun);
    const z = first ? x : await timed(adapterRun);
    if (i < 3) continue;
    a.push(z);
    f.push(y);
    r.push(z / y);
  }
  return { a: median(a), f: median(f), r: median(r), p25: quantile(r, 0.25), p75: quantile(r, 0.75) };
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-bench-codex-')));
try {
  const t0 = performance.now();
  const { home, workspace, small, db } = generate(root);
  const genS = (performance.now() - t0) / 1000;
  const codex = new CodexAdapter(nodePorts());
  const ctx = { workspace, home: home, env: { CODEX_HOME: join(home, '.codex') } };
  const smallCtx = { ...ctx, workspace: small };

  const expected = await minimal(db, workspace);
  const got = await codex.discover(ctx);
  if (JSON.stringify(got) !== JSON.stringify(expected) || got.length !== TARGET) throw new Error(`discover disagrees with the floor: ${got.length} vs ${expected.length}`);
  if ((await codex.discover(smallCtx)).length !== 5) throw new Error('small workspace');

  // What discover reads: no whole file, only bounded heads of the workspace's own rollouts.
  const spy = new SpyFileSystem(new NodeFileSystem());
  await new CodexAdapter({ ...nodePorts(), fs: spy }).discover(ctx);
  const rolloutCalls = spy.calls.filter((c) => c.path.endsWith('.jsonl'));
  const whole = rolloutCalls.filter((c) => c.op === 'readFile' || c.op === 'readText').length;
  const heads = rolloutCalls.filter((c) => c.op === 'readHead');
  const maxHead = Math.max(...heads.map((c) => c.bytes ?? 0));
  const listed = spy.calls.filter((c) => c.op === 'readdir').length;

  // Peak memory over the process baseline, sampled while discover runs.
  const rss0 = process.memoryUsage().rss;
  const heap0 = process.memoryUsage().heapUsed;
  let peakRss = rss0;
  let peakHeap = heap0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 2);
  for (let i = 0; i < 10; i += 1) await codex.discover(ctx);
  clearInterval(sampler);
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  const rssMb = (peakRss - rss0) / 2 ** 20;
  const heapMb = (peakHeap - heap0) / 2 ** 20;

  const main = await ratioOf(() => codex.discover(ctx), () => minimal(db, workspace));
  const tiny = await ratioOf(() => codex.discover(smallCtx), () => minimal(db, small), SMALL_ROUNDS);

  // Spawns of one in-use check: the portable path (ps + lsof) and the Linux one (/proc + lsof).
  const counter = await spawnCounter(join(root, 'spawns'));
  const spawns: string[] = [];
  for (const useProc of [false, true]) {
    const before = (await counter.calls()).length;
    await new CodexAdapter({ ...nodePorts(), proc: new NodeProcessPort({ env: { PATH: counter.path }, useProc }) }).conversationInUse(got[0] as string, ctx);
    spawns.push(((await counter.calls()).slice(before).join(' + ') || 'none') + (useProc ? ' (/proc)' : ' (ps)'));
  }
  const spawnCounts = await Promise.all([0]).then(() => spawns.map((s) => (s.startsWith('none') ? 0 : s.split(' + ').length)));

  const pass = main.r <= LIMIT && whole === 0 && rssMb <= MEMORY_LIMIT_MB && heapMb <= MEMORY_LIMIT_MB && spawnCounts.every((n) => n <= 2);
  const md = [
    '## codex: discover for one workspace',
    '',
    `Generated home: ${ROLLOUTS.toLocaleString('en')} rollouts (each opening with the real 26.8 KB session_meta line, ~67 KB in all) over ${WORKSPACES + 2} workspaces, and their \`threads\` rows in a \`state_5.sqlite\` of the real 0.171 schema and indexes (the real file's migrations and completed backfill; WAL mode, closed cleanly); generated in ${genS.toFixed(0)} s. The measured workspace has ${TARGET} threads. Node ${process.version}, ${ROUNDS} interleaved rounds after 3 warm-up rounds; times are medians, the ratio is the median of the rounds' ratios.`,
    '',
    '| measure | value |',
    '| --- | ---: |',
    `| \`CodexAdapter.discover\` (${TARGET} threads): read-only open, layout check, indexed cwd query, each rollout's bounded head | ${main.a.toFixed(2)} ms |`,
    `| floor: one indexed query on threads by cwd (immutable open) + each rollout read to its first newline and parsed | ${main.f.toFixed(2)} ms |`,
    `| **ratio** adapter / floor (limit ${LIMIT}×; rounds' p25–p75: ${main.p25.toFixed(2)}–${main.p75.toFixed(2)}) | **${main.r.toFixed(2)}× — ${main.r <= LIMIT ? 'PASS' : 'FAIL'}** |`,
    `| same for a workspace of 5 threads (${SMALL_ROUNDS} rounds; fixed costs dominate: ${tiny.a.toFixed(2)} ms vs ${tiny.f.toFixed(2)} ms; p25–p75: ${tiny.p25.toFixed(2)}–${tiny.p75.toFixed(2)}) — for scale | ${tiny.r.toFixed(2)}× |`,
    `| rollouts read whole by discover | ${whole} (${heads.length} bounded heads of ≤ ${(maxHead / 1024).toFixed(0)} KiB, ${listed} directory listings) |`,
    `| peak memory over the process baseline during 10 discovers (rss / heapUsed, limit ${MEMORY_LIMIT_MB} MB) | ${rssMb.toFixed(1)} MB / ${heapMb.toFixed(1)} MB |`,
    `| spawns of one in-use check (limit 2) | ${spawns.join('; ')} |`,
    `| verdict | **${pass ? 'PASS' : 'FAIL'}** |`,
    '',
  ].join('\n');
  process.stdout.write(`${md}\n`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'codex.md'), md);
  if (!pass) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
