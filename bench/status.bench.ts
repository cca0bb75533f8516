// Benchmark: the resume state of a registry of 200 rows over the six agents (what `mam status` shows: resumeStates, one
// verifyArtifact per row in one read scope on the ports' one adapter set) on a home of 5,000 Claude transcripts, 20,000
// Codex rollouts and 50,000 OpenCode sessions beside the real Grok, agy and Hermes stages, against one indexed read per
// row on stores already open (Codex and OpenCode and Hermes: a query by id; Claude: the transcript's first line; Grok: the
// session's summary.json; agy: an lstat of the conversation database), measured in the same run, interleaved, as a ratio.
// Also: the databases opened per call (each once), and the `opencode debug paths` spawns of one status on fresh ports with
// an `opencode` on PATH (1, whatever the number of rows). The same at 1/10 and 10× (Claude and Codex files capped at 4×).
// Run: npx tsx bench/status.bench.ts   (writes bench/results/status.md)
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { claudeProjectKey } from '../src/agents/claude/project-key.js';
import { adaptersOf } from '../src/agents/adapters-of.js';
import { getAdapter } from '../src/agents/get-adapter.js';
import { AGENT_NAMES } from '../src/ids/agent-names.js';
import { withReadScope } from '../src/sqlite/read-scope.js';
import { resumeStates } from '../src/inspect/resume-states.js';
import { nodePorts } from '../src/node/node-ports.js';
import { recordedId, rowAgent } from '../src/registry/row-agent.js';
import { agyTreePaths } from '../test/helpers/adapter-agy-files.js';
import { installFakeOpencode } from '../test/helpers/adapter-opencode-fake-cli.js';
import { mixedHome, type MixedHome } from '../test/helpers/big-homes.js';
import { ratioOf, timed } from './bench-kit.js';

// BENCH_SCALES=0.1 runs one size only (a quick look).
const SCALES = (process.env['BENCH_SCALES'] ?? '0.1,1,10').split(',').map(Number);
const FILE_CAP = 4;
const ROWS = 200;
const ROUNDS = 21;
const LIMIT = 2;

function ro(path: string): Database.Database {
  return new Database(`${pathToFileURL(path).href}?mode=ro&immutable=1`, { readonly: true, fileMustExist: true });
}

async function firstLine(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const s = buf.subarray(0, bytesRead).toString('utf8');
    return s.slice(0, Math.max(0, s.indexOf('\n')));
  } finally {
    await fh.close();
  }
}

// The floor: every store open already, one indexed read per row.
function floorOf(m: MixedHome): { run: (only?: string) => Promise<number>; close: () => void } {
  const codex = ro(m.big.codex.db);
  const opencode = ro(m.big.opencode.db);
  const hermes = ro(m.hermes.db);
  const qc = codex.prepare('SELECT cwd, rollout_path FROM threads WHERE id = ?');
  const qo = opencode.prepare('SELECT directory, parent_id FROM session WHERE id = ?');
  const qh = hermes.prepare('SELECT id, parent_session_id FROM sessions WHERE id = ?');
  const run = async (only?: string): Promise<number> => {
    let n = 0;
    for (const row of m.rows) {
      const id = recordedId(row) as string;
      const cwd = row.pane?.cwd ?? '';
      if (only !== undefined && rowAgent(row) !== only) continue;
      switch (rowAgent(row)) {
        case 'claude':
          n += (await firstLine(join(m.big.claude.projects, claudeProjectKey(cwd), `${id}.jsonl`)).catch(() => '')).length > 0 ? 1 : 0;
          break;
        case 'codex':
          n += qc.get(id) === undefined ? 0 : 1;
          break;
        case 'opencode':
          n += qo.get(id) === undefined ? 0 : 1;
          break;
        case 'hermes':
          n += qh.get(id) === undefined ? 0 : 1;
          break;
        case 'grok': {
          const s = m.grok.expected.sessions[id];
          n += s === undefined ? 0 : readFileSync(join(m.grok.grok, s.session_dir, 'summary.json')).length > 0 ? 1 : 0;
          break;
        }
        case 'agy':
          n += (await lstat(agyTreePaths(m.agy.home, id).db).then(() => 1, () => 0));
          break;
        default:
          break;
      }
    }
    return n;
  };
  return { run, close: () => [codex, opencode, hermes].forEach((d) => d.close()) };
}

// Per agent: its one verifyMany of a status (in a read scope, on the same ports) against its rows' share of the floor.
async function agentCosts(m: MixedHome, opts: { workspace: string; home: string; env: Record<string, string>; ports: ReturnType<typeof nodePorts> }, floor: ReturnType<typeof floorOf>): Promise<string[]> {
  const out: string[] = [];
  const ctx = { workspace: opts.workspace, home: opts.home, env: opts.env };
  for (const agent of AGENT_NAMES) {
    const mine = m.rows.filter((r) => rowAgent(r) === agent);
    const queries = mine.map((r) => ({ id: recordedId(r) as string, workspace: r.pane?.cwd ?? opts.workspace }));
    const a = adaptersOf(opts.ports).get(agent);
    const r = await ratioOf(() => withReadScope(() => (a.verifyMany as NonNullable<typeof a.verifyMany>)(queries, ctx)), () => floor.run(agent), ROUNDS);
    out.push(`| ${agent} | ${queries.length} (${new Set(queries.map((q) => q.id)).size} ids) | ${r.a.toFixed(2)} ms | ${r.f.toFixed(2)} ms | ${r.r.toFixed(2)}× (p25 ${r.p25.toFixed(2)}, p75 ${r.p75.toFixed(2)}) |`);
  }
  return out;
}

function agentOfPath(p: string): string {
  if (p.includes('/.codex/')) return 'codex';
  if (p.includes('/opencode/')) return 'opencode';
  if (p.includes('/.hermes/')) return 'hermes';
  if (p.includes('/.grok/')) return 'grok';
  if (p.includes('/.gemini/')) return 'agy';
  return 'claude';
}

const lines: string[] = [];
const notes: string[] = [];
const agentLines: string[] = [];
let failed = false;
for (const scale of SCALES) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-bench-status-')));
  try {
    const t0 = performance.now();
    const m = await mixedHome(root, scale, ROWS, FILE_CAP);
    const genS = (performance.now() - t0) / 1000;
    // The stores at rest, as a registry's stores are between turns: last changed longer ago than the settle time (3 s),
    // so what the ports remember under the files' lstats (kept connections, probes) may be used.
    await new Promise((r) => setTimeout(r, 3500));
    const workspace = join(root, 'work');
    const ports = nodePorts({ env: m.env });
    const opts = { workspace, home: m.big.home, env: m.env, ports };
    const states = await resumeStates(m.rows, opts);
    const stats = { opens: [] as string[] };
    await resumeStates(m.rows, { ...opts, stats });
    const perAgent = new Map<string, number>();
    for (const p of stats.opens) perAgent.set(agentOfPath(p), (perAgent.get(agentOfPath(p)) ?? 0) + 1);
    const once = stats.opens.length === new Set(stats.opens).size;
    // One status on fresh ports, with an `opencode` on PATH: its `debug paths` runs once whatever the number of rows.
    const spy = join(root, 'spy.log');
    installFakeOpencode(join(root, 'bin'), { spyLog: spy, db: null });
    const withCli = { ...m.env, PATH: `${join(root, 'bin')}:/usr/bin:/bin` };
    const fresh = await timed(() => resumeStates(m.rows, { workspace, home: m.big.home, env: withCli, ports: nodePorts({ env: withCli }) }));
    const spawns = readFileSync(spy, 'utf8').split('\n').filter((l) => l.includes('debug')).length;
    const floor = floorOf(m);
    let r;
    try {
      r = await ratioOf(() => resumeStates(m.rows, opts), () => floor.run(), ROUNDS);
      agentLines.push(`${scale}×:`, '', '| agent | rows (distinct ids) | verifyMany | its floor | ratio |', '| --- | --- | --- | --- | --- |', ...(await agentCosts(m, opts, floor)), '');
    } finally {
      floor.close();
    }
    // Before: one fresh adapter (on fresh ports) per row, no read scope — what `mam status` did.
    const before = await timed(() =>
      Promise.all(
        m.rows.map((row) => {
          const agent = rowAgent(row);
          const id = recordedId(row);
          if (agent === undefined || agent === null || id === null) return false;
          return getAdapter(agent, { ports: nodePorts({ env: m.env }) }).verifyArtifact(id, { workspace: row.pane?.cwd ?? workspace, home: m.big.home, env: m.env }, 'verify');
        }),
      ),
    );
    if (scale === 1 && r.r > LIMIT) failed = true;
    if (!once || spawns !== 1) failed = true;
    const yes = states.filter((s) => s === 'yes').length;
    const sizes = `${m.big.claude.ids.length.toLocaleString('en-US')} / ${m.big.codex.ids.length.toLocaleString('en-US')} / ${m.big.opencode.ids.length.toLocaleString('en-US')}`;
    const opensText = [...perAgent.entries()].sort().map(([a, n]) => `${a} ${n}`).join(', ');
    lines.push(`| ${scale}× (${sizes}) | ${r.a.toFixed(1)} ms | ${r.f.toFixed(1)} ms | **${r.r.toFixed(2)}×** (p25 ${r.p25.toFixed(2)}, p75 ${r.p75.toFixed(2)}) | ${opensText}${once ? '' : ' (SOME TWICE)'} | ${spawns} (${fresh.toFixed(0)} ms) | ${before.toFixed(0)} ms | ${yes} / ${m.rows.length} |`);
    notes.push(`${scale}×: generated in ${genS.toFixed(1)} s`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
const md = [
  '## status of 200 rows over six agents',
  '',
  `Run ${new Date().toISOString()}. resumeStates (what \`mam status\` prints) of ${ROWS} rows (claude, agy, codex, grok, hermes,`,
  'opencode in turn, one in three checked against another workspace) on ports reused between rounds, against one indexed',
  `read per row on stores already open (above); ${ROUNDS} interleaved rounds. Opens: the databases one call opened, per agent`,
  '(Claude and Grok keep no database on these rows\' paths). Spawns: `opencode debug paths` runs of one status on fresh',
  `ports with an \`opencode\` on PATH (its time in brackets). Before: one fresh adapter on fresh ports per row (the code before`,
  `this change), one run. 10× has the Claude and Codex files at ${FILE_CAP}×.`,
  '',
  '| store size (Claude / Codex / OpenCode) | status | floor | ratio | opens per call | debug-paths spawns | before | yes |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ...lines,
  '',
  notes.join('; ') + '.',
  `Targets: ≤ ${LIMIT}× at 1×, each database opened once per call, one spawn: ${failed ? 'NOT all met (see the report)' : 'met'}.`,
  '',
  'Per agent (each agent\'s one verifyMany of a status, in a read scope on the same ports, against its rows\' share of the',
  `floor; ${ROUNDS} interleaved rounds):`,
  '',
  ...agentLines,
  `Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(', ')} (\`nproc\` ${availableParallelism()}).`,
].join('\n');
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'status.md'), md + '\n');
process.stdout.write(md + '\n');
