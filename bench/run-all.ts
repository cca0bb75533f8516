// `npm run bench`: runs every bench/*.bench.ts one after another (each writes bench/results/<name>.md) and rewrites
// bench/RESULTS.md with the machine, the date and every section. Figures are ratios to a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

const failed: string[] = [];
for (const file of benches) {
  process.stdout.write(`\n== ${file}\n`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (res.status !== 0) failed.push(`${file} (exit ${res.status})`);
}

const sections = readdirSync(join(dir, 'results'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => readFileSync(join(dir, 'results', f), 'utf8').trim());
const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`;
const text = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString()} — ${machine}.`,
  'Every figure is measured against a baseline run in the same process (the minimal work it cannot avoid, or a bare',
  'loop of the same I/O), so the ratios hold across machines better than the times; sections keep their own run details.',
  ...((loadavg()[0] ?? 0) > cpus().length ? ['', `The machine was shared and loaded while this ran (load ${(loadavg()[0] ?? 0).toFixed(1)} on ${cpus().length} cores, other jobs running): times are inflated and the ratios noisier than on a quiet machine; the p25–p75 columns show the spread.`] : []),
  '',
  ...sections.flatMap((s) => [s, '']),
].join('\n');
writeFileSync(join(dir, 'RESULTS.md'), text);
process.stdout.write(`\nbench/RESULTS.md rewritten (${sections.length} sections)${failed.length > 0 ? `; FAILED: ${failed.join(', ')}` : ''}\n`);
if (failed.length > 0 || !existsSync(join(dir, 'RESULTS.md'))) process.exit(1);
