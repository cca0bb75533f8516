// Cold import cost of the built root entry: the median wall time of fresh `node -e "import('@mam/core')"` processes minus
// the median of bare `node -e ""` processes, interleaved in the same run. Limit: 60 ms over bare node. Needs `npm run build`.
// Writes bench/results/import-time.md; `--check` only prints and exits 1 over the limit.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
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

function timeOnce(script: string): number {
  const start = process.hrtime.bigint();
  const res = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.status !== 0) throw new Error(`node -e ${JSON.stringify(script)} failed: ${res.stderr.toString()}`);
  return ms;
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
const times: Record<keyof typeof CASES, number[]> = { bare: [], root: [], testing: [] };
for (let w = 0; w < 3; w++) for (const script of Object.values(CASES)) timeOnce(script);
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, script] of Object.entries(CASES) as [keyof typeof CASES, string][]) times[name].push(timeOnce(script));
}

const bare = median(times.bare);
const root = median(times.root);
const testing = median(times.testing);
const over = root - bare;
const verdict = over <= LIMIT_MS ? 'PASS' : 'FAIL';
const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
const text = [
  '## import: cold `import(\'@mam/core\')` over bare node',
  '',
  `Built dist, ${ROUNDS} interleaved rounds of fresh processes after 3 warm-up rounds, ${cpus().length} cores (${cpu}), Node ${process.version}, ${new Date().toISOString()}.`,
  'Heavy dependencies (execa, better-sqlite3, yaml, zod) are loaded when first needed, not at import.',
  '',
  '| measure | median ms |',
  '| --- | ---: |',
  `| bare \`node -e ""\` | ${bare.toFixed(1)} |`,
  `| \`node -e "import('@mam/core')"\` | ${root.toFixed(1)} |`,
  `| \`node -e "import('@mam/core/testing')"\` — for scale | ${testing.toFixed(1)} |`,
  `| **over bare node** (limit ${LIMIT_MS} ms) | **${over.toFixed(1)} ms — ${verdict}** |`,
  '',
].join('\n');
process.stdout.write(text);
if (!check) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'import-time.md'), text);
}
if (verdict === 'FAIL') process.exit(1);
