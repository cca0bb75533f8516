// Timing helpers shared by the status and purge-auto benchmarks: interleaved medians of a measured run and its baseline.
import { performance } from 'node:perf_hooks';

/** The value at quantile `q` of `xs`. */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? Number.NaN;
}

/** Milliseconds `fn` takes. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Medians of `run` and `floor` measured interleaved (order alternating, 3 warm-up rounds), and of their per-round ratio. */
export async function ratioOf(run: () => Promise<unknown>, floor: () => Promise<unknown>, rounds: number): Promise<{ a: number; f: number; r: number; p25: number; p75: number }> {
  const a: number[] = [];
  const f: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < rounds + 3; i += 1) {
    const first = i % 2 === 0;
    const x = first ? await timed(run) : 0;
    const y = await timed(floor);
    const z = first ? x : await timed(run);
    if (i < 3) continue;
    a.push(z);
    f.push(y);
    r.push(z / y);
  }
  return { a: quantile(a, 0.5), f: quantile(f, 0.5), r: quantile(r, 0.5), p25: quantile(r, 0.25), p75: quantile(r, 0.75) };
}
