// Cold import cost of the built root entry: the median wall time of fresh `node -e "import('@mam/core')"` processes minus
// the median of bare `node -e ""` processes, interleaved in the same run. Limit: 60 ms over bare node. Needs `npm run build`.
// Writes bench/results/import-time.md; `--check` only prints and exits 1 over the limit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LIMIT_MS = 60;
const ROUNDS = Number(process.env['MAM_IMPORT_BENCH_ROUNDS'] ?? 31);
const check = process.argv.includes('--check');

if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
  process.stderr.write('bench/import-time: dist/index.js is missing; run `npm run build` first\n');
  process.exit(1);
}

// Wall time of the whole process, and the CPU time (user + system) it reports for itself once the import is done — the
// second is far less sensitive to a busy machine.
const CPU = "const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000))";

function timeOnce(script: string): { wall: number; cpu: number } {
  const code = script === '' ? CPU : `${script}.then(() => { ${CPU} })`;
  const start = process.hrtime.bigint();
  const res = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 0) throw new Error(`node -e ${JSON.stringify(script)} failed: ${res.stderr.toString()}`);
  return { wall, cpu: Number(res.stdout.toString()) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

const CASES = {
  bare: '',
  root: "import('@mam/core')",
  testing: "import('@mam/core/testing')",
} as const;
const times: Record<keyof typeof CASES, { wall: number; cpu: number }[]> = { bare: [], root: [], testing: [] };
for (let w = 0; w < 3; w++) for (const script of Object.values(CASES)) timeOnce(script);
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, script] of Object.entries(CASES) as [keyof typeof CASES, string][]) times[name].push(timeOnce(script));
}

const med = (name: keyof typeof CASES, k: 'wall' | 'cpu'): number => median(times[name].map((t) => t[k]));
const bare = med('bare', 'wall');
const root = med('root', 'wall');
const testing = med('testing', 'wall');
const over = root - bare;
const cpuOver = med('root', 'cpu') - med('bare', 'cpu');
const verdict = over <= LIMIT_MS ? 'PASS' : 'FAIL';
const load = loadavg()[0] ?? 0;
const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
const text = [
  '## import: cold `import(\'@mam/core\')` over bare node',
  '',
  `Built dist, ${ROUNDS} interleaved rounds of fresh processes after 3 warm-up rounds, ${cpus().length} cores (${cpu}), Node ${process.version}, load average ${load.toFixed(1)}, ${new Date().toISOString()}.`,
  'Heavy dependencies (execa, better-sqlite3, yaml, zod) are loaded when first needed, not at import; the root loads two files (the entry and one chunk, scripts/merge-root-chunks.mjs) holding only what a first call needs.',
  '',
  '| measure | median ms |',
  '| --- | ---: |',
  `| bare \`node -e ""\` | ${bare.toFixed(1)} |`,
  `| \`node -e "import('@mam/core')"\` | ${root.toFixed(1)} |`,
  `| \`node -e "import('@mam/core/testing')"\` — for scale | ${testing.toFixed(1)} |`,
  `| **over bare node**, wall (limit ${LIMIT_MS} ms) | **${over.toFixed(1)} ms — ${verdict}** |`,
  `| over bare node, CPU time the process reports (user + system) | ${cpuOver.toFixed(1)} ms |`,
  ...(load > cpus().length ? ['', `The machine was oversubscribed (load ${load.toFixed(1)} on ${cpus().length} cores): wall times are inflated; the CPU row is the steadier figure.`] : []),
  '',
].join('\n');
process.stdout.write(text);
if (!check) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'import-time.md'), text);
}
if (verdict === 'FAIL') process.exit(1);
