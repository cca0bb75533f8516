// Timing helpers the discover/verify benches share: interleaved rounds (order alternating, so both sides see the same
// cache and load), medians, and the median of the rounds' ratios with its p25–p75.
import { performance } from 'node:perf_hooks';

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

/** Adapter and baseline medians (ms), the median ratio and its p25–p75, over `rounds` after `warm` warm-up rounds. */
export interface Ratio {
  a: number;
  f: number;
  r: number;
  p25: number;
  p75: number;
}

export async function ratioOf(adapterRun: () => unknown, floorRun: () => unknown, rounds: number, warm = 3): Promise<Ratio> {
  const a: number[] = [];
  const f: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < rounds + warm; i += 1) {
    const first = i % 2 === 0;
    const x = first ? await timed(adapterRun) : 0;
    const y = await timed(floorRun);
    const z = first ? x : await timed(adapterRun);
    if (i < warm) continue;
    a.push(z);
    f.push(y);
    r.push(z / y);
  }
  return { a: median(a), f: median(f), r: median(r), p25: quantile(r, 0.25), p75: quantile(r, 0.75) };
}

export const ms = (x: number): string => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(2)} ms`);
export const ratioCell = (x: Ratio, limit: number): string => `**${x.r.toFixed(2)}×** (p25–p75 ${x.p25.toFixed(2)}–${x.p75.toFixed(2)}) ${x.r <= limit ? 'PASS' : 'FAIL'}`;
