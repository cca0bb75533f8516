// `npm run example:custom-agent`: builds the package when dist/ is missing or older than its sources (the example
// imports `@mam/core` by name, which resolves to dist/ through the package's `exports`), then runs main.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const BUILT = ['dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js'];
const INPUTS = ['src', 'tsup.config.ts', 'package.json', 'tsconfig.json'];

function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let most = st.mtimeMs;
  for (const name of readdirSync(path)) most = Math.max(most, newest(join(path, name)));
  return most;
}

const built = BUILT.map((f) => join(ROOT, f));
const oldest = built.every((f) => existsSync(f)) ? Math.min(...built.map((f) => statSync(f).mtimeMs)) : 0;
if (oldest <= Math.max(...INPUTS.map((f) => newest(join(ROOT, f))))) {
  console.log('building @mam/core (npm run build) …');
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    console.error(`npm run build failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}
await import('./main.mjs');
