#!/usr/bin/env node
// `npm run check:package` (CI, after the build): the package as its users install it. Packs the tarball, installs it
// into a scratch consumer project in a temp dir outside the repo, and there type-checks a consumer file under strict
// settings (NodeNext, exactOptionalPropertyTypes, skipLibCheck false, no @types/better-sqlite3), runs an ESM and a CJS
// script under node and again under tsx, runs the README quick start (saved and run as its text says; its output must be the non-empty result it shows), runs a vitest suite over the test kit as a
// downstream project would (the files using `await using`, `seed` and the README's recipe must each finish under 5 s), runs the shipped `mam` bin, compares the export lists with the pinned ones, and runs
// publint and @arethetypeswrong/cli. Exits 1 naming every failed check.
// Offline-friendly: the tarball installs with --prefer-offline --ignore-scripts and gets the repo's compiled
// better-sqlite3 addon; typescript, tsx, vitest, publint and attw are the repo's own (absolute paths), not installed.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quickStartOutputProblem, readmeQuickStart } from './readme-quickstart.mjs';
import { exportNames } from './export-names.mjs';
import { coldImportCost } from './cold-import.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NM = join(ROOT, 'node_modules');
const keep = process.argv.includes('--keep');
const started = Date.now();
const failures = [];
const scratch = mkdtempSync(join(tmpdir(), 'mam-consumer-'));
const app = join(scratch, 'app');

function run(label, cmd, args, opts = {}) {
  const t = Date.now();
  const res = spawnSync(cmd, args, { cwd: app, encoding: 'utf8', env: { ...process.env, ...opts.env }, timeout: opts.timeout ?? 120_000 });
  const expect = opts.status ?? 0;
  const ok = res.status === expect && (opts.check === undefined || opts.check(res) === true);
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${label} (${Date.now() - t} ms)\n`);
  if (!ok) {
    const why = opts.check !== undefined && res.status === expect ? `check failed: ${opts.check(res)}` : `exit ${res.status ?? res.signal}, expected ${expect}`;
    failures.push(label);
    process.stdout.write(`     ${why}\n${indent(res.stdout)}${indent(res.stderr)}`);
  }
  return res;
}

function indent(text) {
  if (!text) return '';
  const lines = text.trimEnd().split('\n');
  const shown = lines.length > 40 ? [...lines.slice(0, 20), '…', ...lines.slice(-20)] : lines;
  return `${shown.map((l) => `     | ${l}`).join('\n')}\n`;
}

function fail(label, why) {
  failures.push(label);
  process.stdout.write(`FAIL ${label}\n     ${why}\n`);
}

const bin = (pkg, rel) => join(NM, pkg, rel);
const TSC = bin('typescript', 'bin/tsc');
const TSX = bin('tsx', 'dist/cli.mjs');
const VITEST = bin('vitest', 'vitest.mjs');
const PUBLINT = bin('publint', 'src/cli.js');
const ATTW = bin('@arethetypeswrong/cli', 'dist/index.js');

try {
  // 1. Pack and install, as `npm install @mam/core` would.
  mkdirSync(app, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: ROOT, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
  const packed = JSON.parse(pack.stdout)[0];
  const tarball = join(scratch, packed.filename);
  const files = packed.files.map((f) => f.path);
  for (const must of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'dist/cli.js']) {
    if (!files.includes(must)) fail(`tarball contains ${must}`, `missing; it has ${files.length} files`);
  }
  const stray = files.filter((f) => !/^(dist\/|LICENSE$|README\.md$|CHANGELOG\.md$|package\.json$)/.test(f));
  if (stray.length > 0) fail('tarball holds only dist, docs and package.json', stray.join(', '));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'mam-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
  run('npm install <tarball>', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--no-package-lock', tarball], { timeout: 170_000 });
  const installed = join(app, 'node_modules', '@mam', 'core');
  const sqliteBuild = join(NM, 'better-sqlite3', 'build');
  const sqliteTo = join(app, 'node_modules', 'better-sqlite3');
  if (existsSync(sqliteBuild) && existsSync(sqliteTo)) cpSync(sqliteBuild, join(sqliteTo, 'build'), { recursive: true });
  // The consumer's own dev tools: @types/node and vitest (linked, as its devDependencies would be). Never
  // @types/better-sqlite3: the published types must not need it.
  mkdirSync(join(app, 'node_modules', '@types'), { recursive: true });
  symlinkSync(join(NM, '@types', 'node'), join(app, 'node_modules', '@types', 'node'), 'dir');
  symlinkSync(join(NM, 'vitest'), join(app, 'node_modules', 'vitest'), 'dir');

  // 2. Package metadata and source maps.
  const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  if (pkg.repository === undefined) fail('package.json has a repository', 'missing');
  if (pkg.bin?.mam === undefined) fail('package.json has bin.mam', 'missing');
  if (!existsSync(join(installed, 'LICENSE'))) fail('LICENSE is shipped', 'missing');
  for (const dir of [join(installed, 'dist'), join(installed, 'dist', 'testing'), join(installed, 'dist', 'cli')]) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.map'))) {
      const map = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      const bad = (map.sources ?? []).filter((s) => isAbsolute(s) || s.startsWith('file:') || s.includes(ROOT));
      if (bad.length > 0) fail(`source map ${f} has no absolute build paths`, bad.slice(0, 3).join(', '));
    }
  }
  for (const f of readdirSync(join(installed, 'dist')).filter((n) => /\.(c|m)?js$/.test(n))) {
    if (/require\(["']execa["']\)/.test(readFileSync(join(installed, 'dist', f), 'utf8'))) fail(`${f} never requires ESM-only execa`, 'it does');
  }

  // 3. The consumer's files.
  const fixtures = join(ROOT, 'scripts', 'check-package');
  for (const f of readdirSync(fixtures)) cpSync(join(fixtures, f), join(app, f));
  // The README's test-kit recipe, exactly as test/docs runs it (there it imports the package by its own name too).
  cpSync(join(ROOT, 'test', 'docs', 'recipe-fake-holder.test.ts'), join(app, 'recipe-fake-holder.test.ts'));
  // The README quick start, saved under the file name its text gives (the strict tsconfig type-checks that file).
  let quick = null;
  try {
    quick = readmeQuickStart(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    writeFileSync(join(app, quick.file), quick.code);
  } catch (err) {
    fail('README has a quick start: a file name, a command and a ts block', err instanceof Error ? err.message : String(err));
  }
  const pinned = (name) => readFileSync(join(ROOT, `test/unit/package/export-lists/${name}.txt`), 'utf8').trim().split('\n');
  const subpaths = Object.keys(pkg.exports).filter((k) => /^\.\/[a-z]+$/.test(k) && k !== './testing').map((k) => k.slice(2));
  writeFileSync(join(app, 'expected-exports.json'), JSON.stringify({ core: pinned('core'), testing: pinned('testing'), subpaths: Object.fromEntries(subpaths.map((n) => [n, pinned(n)])) }));
  // The root is the documented front door: under 250 names, types included (as `import { … } from '@mam/core'` sees them).
  const rootNames = exportNames(join(installed, 'dist', 'index.d.ts'));
  process.stdout.write(`${rootNames.length < 250 ? 'ok  ' : 'FAIL'} @mam/core exports ${rootNames.length} names, types included (budget < 250)\n`);
  if (rootNames.length >= 250) failures.push('@mam/core exports under 250 names');

  // 4. Types: a strict consumer, skipLibCheck off, no @types/better-sqlite3.
  run('tsc: strict NodeNext consumer, exactOptionalPropertyTypes, skipLibCheck false', process.execPath, [TSC, '-p', 'tsconfig.json']);
  run('tsc: a DiscoveryContext in the deprecated { homeDir } spelling typechecks (strict consumer)', process.execPath, [TSC, '-p', 'tsconfig.homedir.json']);

  // 5. Runtime: ESM and CJS under node, then under tsx; the README quick start.
  const home = join(scratch, 'home');
  mkdirSync(home);
  const env = { HOME: home };
  run('node esm.mjs', process.execPath, ['esm.mjs'], { env: { ...env, MAM_CHECK_SAME_CLASS: '1' } });
  run('node cjs.cjs', process.execPath, ['cjs.cjs'], { env: { ...env, MAM_CHECK_SAME_CLASS: '1' } });
  run('tsx esm.mjs', process.execPath, [TSX, 'esm.mjs'], { env });
  run('tsx cjs.cjs', process.execPath, [TSX, 'cjs.cjs'], { env });
  // A .cts script under tsx: `require('@mam/core')` cannot work there on Node 20 (tsx's CommonJS loader cannot link any
  // ES module that imports another: ERR_VM_MODULE_LINK_FAILURE); the README's answer, `await import('@mam/core')` from
  // the .cts, must run.
  run('tsx script.cts (the README way: await import from CommonJS TypeScript)', process.execPath, [TSX, 'script.cts'], { env, check: (r) => r.stdout.includes('cts ok') || 'no "cts ok"' });
  run('node invalid-arguments.mjs (relative workspace / registry dir → INVALID_ARGUMENT)', process.execPath, ['invalid-arguments.mjs'], { env });
  run('node invalid-args.mjs (plain JS: UNKNOWN_AGENT, INVALID_ARGUMENT naming the parameter)', process.execPath, ['invalid-args.mjs'], { env });
  if (quick !== null) {
    // Run with the command the README gives (`npx tsx <file>`: tsx is the repo's own here), in a TMPDIR of its own where
    // its sandbox must be gone afterwards (`await using` disposed it); its output must be the non-empty result the README shows.
    const [runner, ...args] = quick.command.split(/\s+/);
    const quickTmp = join(scratch, 'quickstart-tmp');
    mkdirSync(quickTmp);
    if (runner !== 'npx' || args[0] !== 'tsx') fail('the README quick start runs with `npx tsx <file>`', `it says \`${quick.command}\``);
    else {
      run(`${quick.command} (README quick start: a non-empty result)`, process.execPath, [TSX, ...args.slice(1)], {
        env: { ...env, TMPDIR: quickTmp },
        check: (r) => {
          const left = readdirSync(quickTmp).filter((n) => n.startsWith('mam-quickstart-')); // tsx keeps its own cache there
          return quickStartOutputProblem(r.stdout) ?? (left.length === 0 || `left ${left.join(', ')} in its TMPDIR`);
        },
      });
    }
  }

  // Cold import: `import('@mam/core')` from the consumer, median of repeated runs, over a bare `node -e ''`. The goal is
  // 40 ms of wall time (issue 34): the root loads only what a first call needs, in two files (the entry and one chunk,
  // scripts/merge-root-chunks.mjs), no dependency. Wall time on a shared 2-core machine swings with its load, so the
  // check holds a ceiling on the CPU time the process reports over bare node instead: about 45 ms at a load of 9, where
  // zod loaded eagerly again adds some 200 ms and the old layout (every adapter, 72 chunks) costs 150 ms or more.
  const COLD_GOAL_MS = 40;
  const COLD_CPU_CEILING_MS = 100;
  const cold = coldImportCost(app, { runs: 15 });
  const coldOk = cold.cpuOverMs <= COLD_CPU_CEILING_MS;
  const against = cold.overMs <= COLD_GOAL_MS ? 'within the goal' : 'over the goal (a busy machine?)';
  process.stdout.write(`${coldOk ? 'ok  ' : 'FAIL'} cold import('@mam/core'): ${cold.overMs} ms over bare node, ${against} of ${COLD_GOAL_MS} ms (median of ${cold.runs}: ${cold.importMs} vs ${cold.bareMs} ms; load ${cold.load}); CPU ${cold.cpuOverMs} ms over bare, ceiling ${COLD_CPU_CEILING_MS} ms${coldOk ? '' : ': over the ceiling'}\n`);
  if (!coldOk) failures.push(`cold import within ${COLD_CPU_CEILING_MS} ms of CPU over bare node (${cold.cpuOverMs} ms)`);

  // 6. The test kit from the built package, in vitest, as a downstream project uses it; the files using `await using`,
  // `seed` and the README's recipe must each finish under 5 s (vitest's own per-file time, from its JSON report).
  const report = join(scratch, 'vitest-report.json');
  run('vitest: buildSandbox, seed, await using, the README recipe, installFakeHerdr, installFakeAgents, FakeHerdr, FakeProcessTable', process.execPath,
    [VITEST, 'run', '--root', app, '--dir', app, '--testTimeout', '60000', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { env: { CI: 'true' }, timeout: 170_000 });
  if (existsSync(report)) {
    const files = JSON.parse(readFileSync(report, 'utf8')).testResults ?? [];
    for (const name of ['kit-seed.test.ts', 'recipe-fake-holder.test.ts']) {
      const r = files.find((f) => f.name.endsWith(`/${name}`));
      const ms = r === undefined ? NaN : r.endTime - r.startTime;
      process.stdout.write(`  ${name}: ${Number.isNaN(ms) ? "not run" : `${Math.round(ms)} ms`}\n`);
      if (!(ms < 5000)) fail(`vitest ${name} finishes under 5 s`, Number.isNaN(ms) ? 'not run' : `${ms} ms`);
    }
  }

  // 7. The shipped bin.
  const mam = join(app, 'node_modules', '.bin', 'mam');
  run('mam --version', mam, ['--version'], { check: (r) => r.stdout.trim() === pkg.version || `printed ${JSON.stringify(r.stdout)}` });
  run('mam --help (stdout, exit 0)', mam, ['--help'], { check: (r) => (r.stdout.includes('usage: mam') && r.stderr === '') || 'help not on stdout' });
  run('mam discover --help', mam, ['discover', '--help'], { check: (r) => r.stdout.startsWith('mam discover') || 'no synopsis' });
  run('mam (no command: usage on stderr, exit 2)', mam, [], { status: 2, check: (r) => (r.stdout === '' && r.stderr.includes('usage: mam')) || 'usage not on stderr' });
  run('mam frobnicate (exit 2)', mam, ['frobnicate'], { status: 2 });
  const ws = join(scratch, 'ws');
  mkdirSync(ws);
  run('mam discover codex on a sandbox', mam, ['discover', 'codex', '--workspace', ws, '--home', home, '--json'], { check: (r) => { const d = JSON.parse(r.stdout); return (d.kind === 'discovered' && Array.isArray(d.ids)) || 'not {"kind":"discovered","ids":[…]}'; } });

  // 8. Linters of the published shape.
  run('publint --strict', process.execPath, [PUBLINT, installed, '--strict', '--pack', 'false'], { cwd: app });
  run('attw --profile esm-only', process.execPath, [ATTW, tarball, '--profile', 'esm-only', '--format', 'ascii'], { env: { NO_COLOR: '1' } });
} catch (err) {
  fail('check-package ran to the end', err instanceof Error ? err.stack : String(err));
} finally {
  if (keep) process.stdout.write(`kept ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
}

const secs = ((Date.now() - started) / 1000).toFixed(0);
if (failures.length > 0) {
  process.stdout.write(`\ncheck-package: ${failures.length} FAILED (${secs} s): ${failures.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write(`\ncheck-package: the tarball works as installed (${secs} s)\n`);
