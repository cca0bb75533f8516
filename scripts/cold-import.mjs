// The cost of a cold `import('@mam/core')` over a bare node start, measured from a consumer directory: the median of
// `runs` alternating runs of each (alternating spreads a load change over both). Used by scripts/check-package.mjs.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function timed(cwd, code) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', code], { cwd, stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error(`node -e ${JSON.stringify(code)} exited ${r.status ?? r.signal}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Median wall times (ms) of `node -e ""` and `node -e "import('@mam/core')"` in `cwd`, and the difference. */
export function coldImportCost(cwd, { runs = 15 } = {}) {
  const bare = [];
  const imported = [];
  timed(cwd, "import('@mam/core')"); // the first run fills the page cache; not counted
  for (let i = 0; i < runs; i++) {
    bare.push(timed(cwd, ''));
    imported.push(timed(cwd, "import('@mam/core')"));
  }
  const bareMs = Math.round(median(bare));
  const importMs = Math.round(median(imported));
  return { bareMs, importMs, overMs: importMs - bareMs, runs, load: loadavg()[0].toFixed(1) };
}
