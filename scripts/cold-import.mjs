// The cost of a cold `import('@mam/core')` over a bare node start, measured from a consumer directory: the median of
// `runs` alternating runs of each (alternating spreads a load change over both). Wall time is the figure of the goal; the
// CPU time each process reports for itself (user + system, once the import is done) is far steadier on a busy machine,
// so a check can hold a ceiling on it. Used by scripts/check-package.mjs.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const CPU = 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000))';

function timed(cwd, script) {
  const code = script === '' ? CPU : `${script}.then(() => { ${CPU} })`;
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', code], { cwd, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`node -e ${JSON.stringify(script)} exited ${r.status ?? r.signal}`);
  return { wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: Number(r.stdout.toString()) };
}

/**
 * Median wall times (ms) of `node -e ""` and `node -e "import('@mam/core')"` in `cwd` and their difference, and the
 * difference of the median CPU times the two processes report.
 */
export function coldImportCost(cwd, { runs = 15 } = {}) {
  const bare = [];
  const imported = [];
  timed(cwd, "import('@mam/core')"); // the first run fills the page cache; not counted
  for (let i = 0; i < runs; i++) {
    bare.push(timed(cwd, ''));
    imported.push(timed(cwd, "import('@mam/core')"));
  }
  const bareMs = Math.round(median(bare.map((t) => t.wall)));
  const importMs = Math.round(median(imported.map((t) => t.wall)));
  const cpuOverMs = Math.round(median(imported.map((t) => t.cpu)) - median(bare.map((t) => t.cpu)));
  return { bareMs, importMs, overMs: importMs - bareMs, cpuOverMs, runs, load: loadavg()[0].toFixed(1) };
}
