// vitest globalSetup: the tests that run `mam` as a child run the built bin (`dist/cli.js`, what `npm install` gives a
// user), not the sources through tsx (a tsx start costs ~0.5 s of CPU more than the bin's, and the crash tests start
// the bin dozens of times). Builds the package first when `dist` is missing or older than anything it is built from
// (a fresh clone: `npm ci && npm test`); CI has just built it and skips the build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const BUILT = ['dist/cli.js', 'dist/index.js', 'dist/testing/index.js'];
const INPUTS = ['src', 'tsup.config.ts', 'scripts/merge-root-chunks.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newest(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let most = st.mtimeMs;
  for (const name of readdirSync(path)) most = Math.max(most, newest(join(path, name)));
  return most;
}

export default function setup(): void {
  const built = BUILT.map((f) => join(ROOT, f));
  const oldest = built.every((f) => existsSync(f)) ? Math.min(...built.map((f) => statSync(f).mtimeMs)) : 0;
  const inputs = Math.max(...INPUTS.map((f) => newest(join(ROOT, f))));
  if (oldest > inputs) return;
  process.stdout.write('building dist/ for the tests that run the `mam` bin (npm run build)\n');
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status ?? r.signal}): the CLI tests need dist/`);
}
