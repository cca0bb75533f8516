#!/usr/bin/env node
// `npm run test:real [-- --latest] [--only=codex,opencode,claude,gemini] [vitest args…]`: installs the real agent CLIs (pinned in
// test/real/clis.json, or with --latest the newest versions the registry serves) outside the repository, runs the
// real-CLI suite (vitest.real.config.ts) against them, and prints a compatibility table.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRealClis, quietEnv } from './install-real-clis.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const latest = args.includes('--latest');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : undefined;
const passThrough = args.filter((a) => a !== '--latest' && a !== onlyArg);

const started = Date.now();
const installed = installRealClis({ latest, only });
const installSeconds = Math.round((Date.now() - started) / 1000);
const out = mkdtempSync(join(tmpdir(), 'mam-real-report-'));
const reportFile = join(out, 'real.json');
// Each CLI's files: `<name>.real.ts` and any `<name>-<topic>.real.ts` (e.g. opencode-status-spawns.real.ts).
const ofCli = (name, file) => file === `${name}.real.ts` || (file.startsWith(`${name}-`) && file.endsWith('.real.ts'));
const realFiles = readdirSync(join(repo, 'test/real'));
const files = Object.keys(installed).flatMap((name) => realFiles.filter((f) => ofCli(name, f)).map((f) => `test/real/${f}`));
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--config', 'vitest.real.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${reportFile}`, ...files, ...passThrough],
  { cwd: repo, stdio: 'inherit', env: { ...process.env, ...quietEnv, MAM_REAL_CLIS: JSON.stringify(installed) } },
);

let results = [];
try {
  results = JSON.parse(readFileSync(reportFile, 'utf8')).testResults ?? [];
} catch {
  // vitest did not get as far as writing its report
}
const rows = Object.entries(installed).map(([name, cli]) => {
  const own = results.filter((r) => ofCli(name, basename(r.name)));
  const file = own.find((r) => basename(r.name) === `${name}.real.ts`);
  const tests = own.flatMap((r) => r.assertionResults ?? []);
  const count = (s) => tests.filter((t) => t.status === s).length;
  const failed = count('failed');
  const verdict = file === undefined ? 'not run' : failed === 0 && count('passed') > 0 ? 'compatible' : 'FAILS';
  return [name, cli.package, cli.pinned, cli.version, String(count('passed')), String(failed), verdict];
});
const header = ['cli', 'package', 'pinned', 'tested', 'passed', 'failed', 'verdict'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
process.stdout.write(
  [
    '',
    `Real-CLI compatibility (${latest ? 'newest versions' : 'pinned versions'}; install ${installSeconds}s, total ${Math.round((Date.now() - started) / 1000)}s)`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
  ].join('\n'),
);
rmSync(out, { recursive: true, force: true });
process.exit(run.status ?? 1);
