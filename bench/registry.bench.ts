// Benchmark: SessionRegistry on a 1,000-row registry — snapshot and one locked update (p50/p95; budget 5 ms p50 each),
// and the throughput of 8 concurrent writer processes against a bare atomic write loop of the same file, measured in
// the same run (bare loop before and after the writers, averaged) and reported as a ratio.
// Run: npx tsx bench/registry.bench.ts   (prints the section and writes bench/results/registry.md)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../src/atomic/index.js';
import { NodeFileSystem } from '../src/node/node-fs.js';
import { type SessionRow, SessionRegistry } from '../src/registry/index.js';

const ROWS = 1_000;
const ROUNDS = 201;
const WRITERS = 8;
const UPDATES_PER_WRITER = 40;
const BARE_WRITES = 200;
const BUDGET_MS = 5;

function row(i: number, ws: string): SessionRow {
  return {
    name: `reviewer-claude-${String(i).padStart(4, '0')}`,
    status: 'running',
    role: 'planner,reviewer',
    agent: 'claude',
    herdr_session: 'default',
    herdr_server: 'default',
    herdr_workspace: 'lbl1',
    herdr_session_created_at: '2026-10-01T00:00:00Z',
    herdr_session_epoch: 1700000000 + i,
    claude_session_id_own: `a7800001-0000-4000-8000-${String(i).padStart(12, '0')}`,
    session_id_source: 'discovered',
    session_id_verified: true,
    pane: { cwd: ws, pid: 4242 + i, cmd: 'claude' },
    autopin_note: 'kept as it is',
  };
}

function flip(r: SessionRow | undefined): void {
  if (r !== undefined) r.status = r.status === 'running' ? 'stopped' : 'running';
}

interface Stats {
  p50: number;
  p95: number;
}

function stats(samples: readonly number[]): Stats {
  const xs = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function timed(rounds: number, fn: (i: number) => Promise<unknown>): Promise<Stats> {
  const xs: number[] = [];
  for (let i = 0; i < rounds; i++) xs.push(await time(() => fn(i)));
  return stats(xs);
}

// The same operation and a bare atomic write of the same bytes, interleaved round by round, so load on the machine
// hits both alike: their p50s, and the p50 of the per-round difference (what the registry adds to the write itself).
async function againstBare(rounds: number, bare: () => Promise<unknown>, fn: (i: number) => Promise<unknown>): Promise<{ op: Stats; bare: Stats; extra: Stats }> {
  const ops: number[] = [];
  const bares: number[] = [];
  for (let i = 0; i < rounds; i++) {
    bares.push(await time(bare));
    ops.push(await time(() => fn(i)));
  }
  return { op: stats(ops), bare: stats(bares), extra: stats(ops.map((x, i) => x - (bares[i] ?? 0))) };
}

// Child mode: load the registry, say "ready", wait for "go", do n updates of its own rows, say "done".
async function child(ws: string, n: number, index: number): Promise<void> {
  const registry = new SessionRegistry(ws, { lockTimeoutMs: 120_000 });
  await registry.snapshot();
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) if (line === 'go') break;
  for (let k = 0; k < n; k++) await registry.update((d) => flip(d.herdr_sessions[(index * 97 + k) % ROWS]));
  process.stdout.write('done\n');
}

async function writers(ws: string): Promise<number> {
  const file = fileURLToPath(import.meta.url);
  const procs = Array.from({ length: WRITERS }, (_, i) =>
    spawn(process.execPath, ['--import', 'tsx', file, '--child', ws, String(UPDATES_PER_WRITER), String(i)], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const said = (p: (typeof procs)[number], word: string): Promise<void> =>
    new Promise((resolve, reject) => {
      let out = '';
      p.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.split('\n').includes(word)) resolve();
      });
      p.on('exit', (code) => reject(new Error(`writer exited ${String(code)} before "${word}"`)));
    });
  await Promise.all(procs.map((p) => said(p, 'ready')));
  const done = Promise.all(procs.map((p) => said(p, 'done')));
  const start = performance.now();
  for (const p of procs) p.stdin.write('go\n');
  await done;
  const seconds = (performance.now() - start) / 1000;
  for (const p of procs) p.stdin.end();
  return (WRITERS * UPDATES_PER_WRITER) / seconds;
}

async function bareLoop(path: string, text: string): Promise<number> {
  const fs = new NodeFileSystem();
  const start = performance.now();
  for (let i = 0; i < BARE_WRITES; i++) await writeFileAtomic(fs, path, text);
  return BARE_WRITES / ((performance.now() - start) / 1000);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'mam-bench-registry-'));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  try {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      for (let i = 0; i < ROWS; i++) d.herdr_sessions.push(row(i, ws));
      d.orchestrator_uuids.push('e7800005-0000-4000-8000-000000000005');
    });
    const yamlText = readFileSync(registry.paths.yaml, 'utf8');
    const barePath = join(root, 'bare', 'agent-sessions.yaml');
    mkdirSync(join(root, 'bare'));
    const fs = new NodeFileSystem();
    const bareWrite = (): Promise<void> => writeFileAtomic(fs, barePath, yamlText);
    const snapWarm = await timed(ROUNDS, () => registry.snapshot());
    const snapCold = await timed(ROUNDS, () => new SessionRegistry(ws).snapshot());
    const updWarm = await againstBare(ROUNDS, bareWrite, (i) => registry.update((d) => flip(d.herdr_sessions[(i * 7) % ROWS])));
    const updCold = await timed(ROUNDS, (i) => new SessionRegistry(ws).update((d) => flip(d.herdr_sessions[(i * 11) % ROWS])));
    const noop = await timed(ROUNDS, () => registry.update(() => undefined));

    const bareBefore = await bareLoop(barePath, yamlText);
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) await registry.update((d) => flip(d.herdr_sessions[i]));
    const single = 100 / ((performance.now() - t0) / 1000);
    const eight = await writers(ws);
    const bareAfter = await bareLoop(barePath, yamlText);
    const bare = (bareBefore + bareAfter) / 2;

    const ms = (x: number): string => x.toFixed(2);
    const verdict = (x: number): string => (x <= BUDGET_MS ? 'within' : 'OVER');
    const lines = [
      '## Registry',
      '',
      `Run: \`npx tsx bench/registry.bench.ts\` — ${new Date().toISOString()}, ${availableParallelism()} cores (\`nproc\`), ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load average at start ${load}.`,
      `Registry: ${ROWS} rows (${(yamlText.length / 1024).toFixed(0)} KiB of YAML), every update a real locked read → change one row → atomic write (fsync) → mirror update.`,
      '',
      `| operation (${ROWS} rows, ${ROUNDS} rounds) | p50 ms | p95 ms | budget p50 ${BUDGET_MS} ms |`,
      '| --- | --- | --- | --- |',
      `| snapshot (same instance, file unchanged) | ${ms(snapWarm.p50)} | ${ms(snapWarm.p95)} | ${verdict(snapWarm.p50)} |`,
      `| snapshot (new instance: parse + validate) | ${ms(snapCold.p50)} | ${ms(snapCold.p95)} | — |`,
      `| one locked update (same instance) | ${ms(updWarm.op.p50)} | ${ms(updWarm.op.p95)} | ${verdict(updWarm.op.p50)} |`,
      `| … of which a bare atomic write of the same file (interleaved) | ${ms(updWarm.bare.p50)} | ${ms(updWarm.bare.p95)} | — |`,
      `| … the rest: lock, read, compare, copy, validate, render, mirror (per-round difference) | ${ms(updWarm.extra.p50)} | ${ms(updWarm.extra.p95)} | — |`,
      `| one locked update (new instance: parse first) | ${ms(updCold.p50)} | ${ms(updCold.p95)} | — |`,
      `| no-op update (lock, read, compare, mirror check) | ${ms(noop.p50)} | ${ms(noop.p95)} | — |`,
      '',
      '| throughput (same file) | updates/s | ratio to bare |',
      '| --- | --- | --- |',
      `| bare atomic write loop, 1 process (mean of before/after: ${bareBefore.toFixed(0)} / ${bareAfter.toFixed(0)}) | ${bare.toFixed(0)} | 1.00 |`,
      `| registry updates, 1 process | ${single.toFixed(0)} | ${(single / bare).toFixed(2)} |`,
      `| registry updates, ${WRITERS} concurrent processes × ${UPDATES_PER_WRITER} | ${eight.toFixed(0)} | ${(eight / bare).toFixed(2)} |`,
      '',
    ];
    const text = lines.join('\n');
    process.stdout.write(`${text}\n`);
    const results = fileURLToPath(new URL('./results/registry.md', import.meta.url));
    mkdirSync(join(results, '..'), { recursive: true });
    writeFileSync(results, text);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] ?? '', Number(process.argv[4]), Number(process.argv[5]));
} else {
  await main();
}
