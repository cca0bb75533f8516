// Timing helpers the discover/verify benches share: interleaved rounds (order alternating, so both sides see the same
// cache and load), medians, and the median of the rounds' ratios with its p25–p75.
import { performance } from 'node:perf_hooks';
import { enableSqliteUri } from '../src/node/sqlite-uri.js';

// The baselines open `file:…?immutable=1` URIs themselves, possibly before the library's store (loaded on first use)
// has turned URI filenames on: better-sqlite3 reads the switch once, at the first open of the process.
enableSqliteUri();

export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
}

export const median = (xs: readonly number[]): number => quantile(xs, 0.5);

export async function timed(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Adapter and baseline medians (ms per call), the median ratio and its p25–p75, over `rounds` interleaved rounds after
 * a warm-up of `warm` rounds and at least 1.5 s; calls faster than a few milliseconds are timed in runs of several (the same number on both sides).
 */
export interface Ratio {
  a: number;
  f: number;
  r: number;
  p25: number;
  p75: number;
}

// A sample shorter than this is mostly timer and scheduling noise (a call of 100 µs swings ±50% from one to the next on
// a shared 2-core machine): calls that fast are timed in runs of several back to back, and the time per call is kept.
const MIN_SAMPLE_MS = 3;
const MAX_RUN = 200;
// V8 compiles hot code on background threads for a while after it starts running (on 2 cores, beside the calls being
// timed), and the side with more code takes longer to settle: the warm-up lasts at least this long, not only `warm` rounds.
const WARM_MS = 1500;

async function timedRun(fn: () => unknown, times: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < times; i += 1) await fn();
  return (performance.now() - t0) / times;
}

export async function ratioOf(adapterRun: () => unknown, floorRun: () => unknown, rounds: number, warm = 3): Promise<Ratio> {
  const a: number[] = [];
  const f: number[] = [];
  const r: number[] = [];
  // Both sides are timed in runs of the same length, set by the baseline's quicker of two calls.
  const once = Math.min(await timed(floorRun), await timed(floorRun));
  const run = Math.max(1, Math.min(MAX_RUN, Math.ceil(MIN_SAMPLE_MS / Math.max(once, 1e-3))));
  const warmUntil = performance.now() + WARM_MS;
  for (let i = 0, measured = 0; measured < rounds; i += 1) {
    const first = i % 2 === 0;
    const x = first ? await timedRun(adapterRun, run) : 0;
    const y = await timedRun(floorRun, run);
    const z = first ? x : await timedRun(adapterRun, run);
    if (i < warm || performance.now() < warmUntil) continue;
    measured += 1;
    a.push(z);
    f.push(y);
    r.push(z / y);
  }
  return { a: median(a), f: median(f), r: median(r), p25: quantile(r, 0.25), p75: quantile(r, 0.75) };
}

export const ms = (x: number): string => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);
export const ratioCell = (x: Ratio, limit: number): string => `**${x.r.toFixed(2)}×** (p25–p75 ${x.p25.toFixed(2)}–${x.p75.toFixed(2)}) ${x.r <= limit ? 'PASS' : 'FAIL'}`;
