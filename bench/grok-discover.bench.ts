// Benchmark: GrokAdapter.discover and verifyArtifact against the LEAST work that gives the right answer — Grok keeps no
// index of sessions by cwd, its buckets are the index: the workspace's realpath, one listing of `sessions/` (each bucket
// name decoded, a hashed bucket's `.cwd` read), one listing of each matching bucket and one read of each session's
// `summary.json` (opened without following a link, checked to be a regular file); for verify, the listing of `sessions/`
// and the id's own `summary.json` in the matching bucket(s). Interleaved in the same process, as ratios. Generated stores of
// 1,000 / 10,000 / 100,000 sessions laid out as grok writes them (url-encoded buckets, a few hashed `<slug>-<hex16>` ones
// with a `.cwd`, `prompt_history.jsonl` beside the session dirs, subagent children hidden), with the same 500- and
// 5-session workspaces at every size.
// Run: npx tsx bench/grok-discover.bench.ts   (writes bench/results/grok.md)
import { constants, type Dirent, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { open, readdir, realpath } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GrokAdapter } from '../src/agents/grok/grok-adapter.js';
import { decodeGrokBucket, encodeGrokCwd } from '../src/agents/grok/grok-encode.js';
import { nodePorts } from '../src/node/node-ports.js';
import { ms, type Ratio, ratioCell, ratioOf } from './bench-kit.js';

// BENCH_GROK_SCALES=10000 for a quicker run; the middle size is the one the limits apply to.
const SCALES = (process.env['BENCH_GROK_SCALES'] ?? '1000,10000,100000').split(',').map(Number);
const MAIN_SCALE = SCALES[Math.floor(SCALES.length / 2)] as number;
const PER_BUCKET = 20; // sessions of every other workspace
const HASHED_EVERY = 25; // every 25th other workspace has a path too long for its name: a hashed bucket with a `.cwd`
const BIG = 500; // visible sessions of the measured workspaces, the same at every size
const SMALL = 5;
const HIDDEN_EVERY = 20; // one subagent child (hidden) per 20 sessions of a workspace
const ROUNDS = 61;
const LIMIT = 1.5;
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

let seq = 0;
// A UUIDv7-shaped id, as grok makes them (time-ordered, lower-case).
function uuid7(): string {
  const n = (seq += 1);
  const hex = (0x01a0355c0000 + n).toString(16).padStart(12, '0');
  const tail = n.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${tail.slice(0, 3)}-8${tail.slice(3, 6)}-${tail}`;
}

function summary(id: string, cwd: string, at: number, hidden: boolean): string {
  const ts = (dt: number): string => new Date(at + dt).toISOString().replace('Z', '123Z');
  const s: Record<string, unknown> = {
    info: { id, cwd },
    session_summary: 'Edit calc.py add to subtract, run tools',
    created_at: ts(0),
    updated_at: ts(2_000),
    num_messages: 34,
    num_chat_messages: 27,
    current_model_id: 'grok-4.6',
    next_trace_turn: 1,
    chat_format_version: 1,
    ...(hidden ? { session_kind: 'subagent' } : {}),
    request_id: '6c94b336-0f27-4370-9a74-da11b5d625a5',
    grok_home: '/tmp/grok-fixture/home/.grok',
    last_active_at: ts(2_000),
    generated_title: 'Edit calc.py add to subtract, run tools',
    agent_name: 'grok-build-plan',
    sandbox_profile: 'off',
    reasoning_effort: 'high',
  };
  return JSON.stringify(s, null, 2);
}

interface Built {
  sessions: string;
  big: string;
  small: string;
  buckets: number;
  genS: number;
}

function bucketDir(sessions: string, cwd: string, k: number): string {
  const enc = encodeGrokCwd(cwd);
  if (enc !== null) return join(sessions, enc);
  const dir = join(sessions, `workspace-${k.toString(16).padStart(16, '0')}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, '.cwd'), cwd);
  return dir;
}

function fill(sessions: string, cwd: string, k: number, count: number, t0: number): void {
  const bucket = bucketDir(sessions, cwd, k);
  const history: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = uuid7();
    const dir = join(bucket, id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'summary.json'), summary(id, cwd, t0 + i * 60_000, i % HIDDEN_EVERY === HIDDEN_EVERY - 1));
    history.push(JSON.stringify({ timestamp: new Date(t0 + i * 60_000).toISOString(), session_id: id, prompt: 'fix the test', is_bash: false }));
  }
  writeFileSync(join(bucket, 'prompt_history.jsonl'), `${history.join('\n')}\n`);
}

function build(base: string, total: number): Built {
  const t0 = performance.now();
  const sessions = join(base, 'home', '.grok', 'sessions');
  const ws = join(base, 'ws');
  const big = join(ws, 'big');
  const small = join(ws, 'small');
  mkdirSync(sessions, { recursive: true });
  let bigCount = BIG;
  while (bigCount - Math.floor(bigCount / HIDDEN_EVERY) < BIG) bigCount += 1;
  let left = total - bigCount - SMALL;
  let k = 0;
  const at = Date.UTC(2026, 7, 1);
  for (const w of [big, small]) mkdirSync(w, { recursive: true });
  fill(sessions, big, (k += 1), bigCount, at);
  fill(sessions, small, (k += 1), SMALL, at + 7_000);
  let buckets = 2;
  while (left > 0) {
    k += 1;
    const long = k % HASHED_EVERY === 0;
    const cwd = long ? join(ws, `w${k}`, ...Array<string>(8).fill('nested-directory-with-a-long-name')) : join(ws, `w${k}`);
    mkdirSync(cwd, { recursive: true });
    const n = Math.min(PER_BUCKET, left);
    fill(sessions, cwd, k, n, at + k * 1_000);
    left -= n;
    buckets += 1;
  }
  return { sessions, big, small, buckets, genS: (performance.now() - t0) / 1000 };
}

// The least read of a summary.json: opened without following a link, checked to be a regular file on the descriptor.
async function summaryOf(path: string): Promise<{ id: string | undefined; cwd: string | undefined; at: number; hidden: boolean } | null> {
  let fh;
  try {
    fh = await open(path, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    if (!(await fh.stat()).isFile()) return null;
    const r = JSON.parse(await fh.readFile('utf8')) as { info?: { id?: string; cwd?: string }; last_active_at?: string; updated_at?: string; hidden?: boolean; session_kind?: string };
    const hidden = r.hidden ?? r.session_kind?.startsWith('subagent') ?? false;
    return { id: r.info?.id, cwd: r.info?.cwd, at: Date.parse(r.last_active_at ?? r.updated_at ?? ''), hidden };
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

// The workspace's spellings and the buckets standing for them: one listing of `sessions/`, names decoded, `.cwd` of a hashed one.
async function bucketsOf(sessions: string, ws: string, listing?: Dirent[]): Promise<{ names: Set<string>; buckets: string[] }> {
  const names = new Set([ws, await realpath(ws)]);
  const entries = listing ?? (await readdir(sessions, { withFileTypes: true }));
  const out = await Promise.all(
    entries.map(async (e) => {
      if (!e.isDirectory() || e.name.startsWith('.')) return null;
      const bucket = join(sessions, e.name);
      let cwd = decodeGrokBucket(e.name);
      if (cwd === null) {
        const fh = await open(join(bucket, '.cwd'), READ_FLAGS).catch(() => null);
        if (fh === null) return null;
        try {
          cwd = (await fh.stat()).isFile() ? (await fh.readFile('utf8')).trim() : null;
        } finally {
          await fh.close();
        }
      }
      return cwd !== null && names.has(cwd) ? bucket : null;
    }),
  );
  return { names, buckets: out.filter((b): b is string => b !== null) };
}

async function leastDiscover(sessions: string, ws: string): Promise<string[]> {
  const { names, buckets } = await bucketsOf(sessions, ws);
  const found: Array<{ id: string; at: number }> = [];
  for (const bucket of buckets) {
    const dirs = (await readdir(bucket, { withFileTypes: true })).filter((e) => e.isDirectory());
    const read = await Promise.all(dirs.map((e) => summaryOf(join(bucket, e.name, 'summary.json'))));
    dirs.forEach((e, i) => {
      const s = read[i];
      if (s != null && s.id === e.name && s.cwd !== undefined && names.has(s.cwd) && !s.hidden) found.push({ id: e.name, at: s.at });
    });
  }
  return found.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : 1)).map((f) => f.id);
}

async function leastVerify(sessions: string, ws: string, id: string): Promise<boolean> {
  const { names, buckets } = await bucketsOf(sessions, ws);
  for (const bucket of buckets) {
    const s = await summaryOf(join(bucket, id, 'summary.json'));
    if (s !== null && s.id === id && s.cwd !== undefined && names.has(s.cwd) && !s.hidden) return true;
  }
  return false;
}

// A status's rows of one agent: one listing of `sessions/`, each workspace's buckets found once, each id's summary read.
async function leastMany(sessions: string, queries: ReadonlyArray<{ id: string; workspace: string }>): Promise<boolean[]> {
  const listing = await readdir(sessions, { withFileTypes: true });
  const of = new Map<string, ReturnType<typeof bucketsOf>>();
  return Promise.all(
    queries.map(async (q) => {
      let m = of.get(q.workspace);
      if (m === undefined) of.set(q.workspace, (m = bucketsOf(sessions, q.workspace, listing)));
      const { names, buckets } = await m;
      for (const bucket of buckets) {
        const s = await summaryOf(join(bucket, q.id, 'summary.json'));
        if (s !== null && s.id === q.id && s.cwd !== undefined && names.has(s.cwd) && !s.hidden) return true;
      }
      return false;
    }),
  );
}

interface Row {
  sessions: number;
  buckets: number;
  genS: number;
  big: Ratio;
  small: Ratio;
  verify: Ratio;
  cold: Ratio;
  many: Ratio;
  perRow: Ratio;
}

// BENCH_GROK_BUILD=<dir>: only build the first size's store under <dir> and stop (to profile against it).
const buildOnly = process.env['BENCH_GROK_BUILD'];
if (buildOnly !== undefined) {
  build(buildOnly, SCALES[0] as number);
  process.exit(0);
}

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-grok-bench-')));
const rows: Row[] = [];
try {
  const adapter = new GrokAdapter(nodePorts());
  for (const total of SCALES) {
    const base = join(root, `s-${total}`);
    const b = build(base, total);
    // As a store in use is: settled (its dirs older than the 3 s the adapter waits before remembering a look at them).
    await new Promise((r) => setTimeout(r, 3_100));
    const home = join(base, 'home');
    const ctxOf = (ws: string): { workspace: string; home: string; env: Record<string, string> } => ({ workspace: ws, home, env: { HOME: home } });
    const want = await leastDiscover(b.sessions, b.big);
    const got = await adapter.discover(ctxOf(b.big));
    if (JSON.stringify(got) !== JSON.stringify(want) || want.length !== BIG) throw new Error(`discover disagrees with the baseline: ${got.length} vs ${want.length}`);
    const wantSmall = await leastDiscover(b.sessions, b.small);
    if (JSON.stringify(await adapter.discover(ctxOf(b.small))) !== JSON.stringify(wantSmall) || wantSmall.length !== SMALL) throw new Error('small workspace');
    const one = want[Math.floor(want.length / 2)] as string;
    if (!(await adapter.verifyArtifact(one, ctxOf(b.big))) || !(await leastVerify(b.sessions, b.big, one))) throw new Error('verify');
    if ((await adapter.verifyArtifact(one, ctxOf(b.small))) || (await leastVerify(b.sessions, b.small, one))) throw new Error('verify of another workspace');
    const big = await ratioOf(() => adapter.discover(ctxOf(b.big)), () => leastDiscover(b.sessions, b.big), ROUNDS, 5);
    const small = await ratioOf(() => adapter.discover(ctxOf(b.small)), () => leastDiscover(b.sessions, b.small), ROUNDS * 2, 5);
    const verify = await ratioOf(() => adapter.verifyArtifact(one, ctxOf(b.big)), () => leastVerify(b.sessions, b.big, one), ROUNDS * 2, 5);
    // Cold: fresh ports each call (nothing remembered: every bucket cwd resolved, every `.cwd` read), for scale.
    const cold = await ratioOf(() => new GrokAdapter(nodePorts()).discover(ctxOf(b.small)), () => leastDiscover(b.sessions, b.small), Math.ceil(ROUNDS / 2), 2);
    // A status's Grok rows: 34 ids (of the two workspaces, one in three checked against the other) in one verifyMany,
    // and as BaseAdapter's default did them (one verifyArtifact per row).
    const queries = Array.from({ length: 34 }, (_, k) => ({ id: k % 2 === 0 ? (want[k] as string) : (wantSmall[k % SMALL] as string), workspace: k % 3 === 2 ? b.small : b.big }));
    const truth = await leastMany(b.sessions, queries);
    if (JSON.stringify(await adapter.verifyMany(queries, ctxOf(b.big))) !== JSON.stringify(truth) || !truth.includes(true) || !truth.includes(false)) throw new Error('verifyMany');
    const many = await ratioOf(() => adapter.verifyMany(queries, ctxOf(b.big)), () => leastMany(b.sessions, queries), ROUNDS, 5);
    const perRow = await ratioOf(() => Promise.all(queries.map((q) => adapter.verifyArtifact(q.id, ctxOf(q.workspace)))), () => leastMany(b.sessions, queries), Math.ceil(ROUNDS / 2), 2);
    rows.push({ sessions: total, buckets: b.buckets, genS: b.genS, big, small, verify, cold, many, perRow });
    process.stdout.write(`grok ${total} (${b.buckets} buckets, built in ${b.genS.toFixed(1)} s): big ${big.r.toFixed(2)}× small ${small.r.toFixed(2)}× verify ${verify.r.toFixed(2)}× cold ${cold.r.toFixed(2)}× verifyMany ${many.r.toFixed(2)}× per-row ${perRow.r.toFixed(2)}×\n`);
    rmSync(base, { recursive: true, force: true });
  }
  const main = rows.filter((r) => r.sessions === MAIN_SCALE);
  const pass = main.every((r) => r.big.r <= LIMIT && r.small.r <= LIMIT && r.verify.r <= LIMIT && r.many.r <= LIMIT);
  const md = [
    '## grok: discover and verifyArtifact from the bucket dirs',
    '',
    `Generated grok homes of ${SCALES.map((s) => s.toLocaleString('en')).join(' / ')} sessions laid out as grok writes them: one bucket \`sessions/<url-encoded cwd>/\` per workspace (${PER_BUCKET} sessions in each other workspace, every ${HASHED_EVERY}th a hashed \`<slug>-<hex16>\` bucket with its \`.cwd\`), each session a dir with a pretty \`summary.json\` (~700 bytes), a \`prompt_history.jsonl\` beside them, one session in ${HIDDEN_EVERY} a hidden subagent child; the measured workspaces are the same at every size: ${BIG} visible sessions (and their hidden children) and ${SMALL}. Node ${process.version}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on a shared 2-core machine; ${ROUNDS} interleaved rounds (${ROUNDS * 2} for the small calls) after 5 warm-up rounds; times are medians, the ratio is the median of the rounds' ratios.`,
    '',
    'Baseline = the least work that gives the right answer: `realpath` of the workspace, one listing of `sessions/` (each bucket name URL-decoded, a hashed bucket\'s `.cwd` read), one listing of each matching bucket and one read of each session dir\'s `summary.json` (opened `O_NOFOLLOW|O_NONBLOCK`, checked on the descriptor to be a regular file, parsed for `info.id`, `info.cwd`, hidden, `last_active_at`); for verify, the same listing of `sessions/` and the id\'s own `summary.json` in each matching bucket. "discover" / "verifyArtifact" = `GrokAdapter` (agent env, home, the workspace matcher, the same checks).',
    '',
    `| sessions | buckets | discover ${BIG}: adapter / baseline | ratio | discover ${SMALL}: adapter / baseline | ratio | verifyArtifact: adapter / baseline | ratio | discover ${SMALL} on fresh ports (cold) | ratio |`,
    '| ---: | ---: | ---: | --- | ---: | --- | ---: | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.sessions.toLocaleString('en')} | ${r.buckets.toLocaleString('en')} | ${ms(r.big.a)} / ${ms(r.big.f)} | ${ratioCell(r.big, LIMIT)} | ${ms(r.small.a)} / ${ms(r.small.f)} | ${ratioCell(r.small, LIMIT)} | ${ms(r.verify.a)} / ${ms(r.verify.f)} | ${ratioCell(r.verify, LIMIT)} | ${ms(r.cold.a)} / ${ms(r.cold.f)} | ${r.cold.r.toFixed(2)}× (p25–p75 ${r.cold.p25.toFixed(2)}–${r.cold.p75.toFixed(2)}) |`),
    '',
    '',
    `| sessions | verifyMany of 34 rows: adapter / baseline | ratio | the same rows one verifyArtifact each (the default before) | ratio |`,
    '| ---: | ---: | --- | ---: | --- |',
    ...rows.map((r) => `| ${r.sessions.toLocaleString('en')} | ${ms(r.many.a)} / ${ms(r.many.f)} | ${ratioCell(r.many, LIMIT)} | ${ms(r.perRow.a)} | ${r.perRow.r.toFixed(2)}× (p25–p75 ${r.perRow.p25.toFixed(2)}–${r.perRow.p75.toFixed(2)}) |`),
    '',
    'verifyMany baseline = one listing of `sessions/`, each workspace\'s matching buckets found once from it, each id\'s own `summary.json` read (what a status needs of its Grok rows). The per-row column is what BaseAdapter\'s default `verifyMany` did: one listing of `sessions/` per row.',
    '',
    'The adapter runs on ports kept between calls (as in a long-lived process): a bucket cwd found to resolve to itself is remembered under its parent dir\'s `realpath` + `lstat` once settled, a hashed bucket\'s `.cwd` under its `lstat`, so a call costs one look per parent dir instead of one `realpath` per bucket. The cold column is a fresh set of ports per call (every bucket cwd resolved, every `.cwd` read): what the first call after a change costs.',
    'Growth: both sides list `sessions/` once per call, so the small calls grow with the number of buckets (the store\'s workspaces, not its sessions), the same on both sides; the reads follow the workspace\'s own sessions. The big call\'s cost is its 500 summaries at every size.',
    `Verdict (limit ${LIMIT}× at ${MAIN_SCALE.toLocaleString('en')} sessions): **${pass ? 'PASS' : 'FAIL'}**.`,
    '',
  ].join('\n');
  process.stdout.write(`${md}\n`);
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', 'grok.md'), md);
  if (!pass) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
