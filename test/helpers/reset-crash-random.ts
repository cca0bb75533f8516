// SIGKILL at random instants: `mam reset --yes` (a real child) is killed at a seeded random instant of its run, then
// rerun to completion; every target ends done, no row is lost, no old conversation stays on disk, no new one is purged,
// and the loop guard a killed run leaves never blocks the rerun. One sandbox serves every cycle: each completed cycle
// leaves the rows running on fresh ids, the next cycle's targets.
//
// Two ways to draw the instant, one scenario:
// - `line` (npm test): the built bin (`dist/cli.js`) is killed as its k-th trace line arrives, k drawn from the seed
//   among the lines of an unkilled run: the instant is a point of the program, the same on a fast or a loaded machine;
// - `time` (npm run test:slow): the sources through tsx are killed after a random delay within the unkilled run's
//   measured duration, so the kills also land inside steps, wherever the machine's speed puts them.
// The killed child reaches the fake herdr through its executable (the transport of a real run); the in-process reruns
// that finish its work reach the same implementation answered in this process (test/helpers/in-process-herdr.ts).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/autopin/index.js';
import { LoopGuard } from '../../src/loop/loop-guard.js';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import { MAM_BIN } from './mam-bin.js';
import { resetSandbox } from './reset-sandbox.js';
import { seededRandom } from './tier.js';

const ROOT = join(import.meta.dirname, '../..');
const NAMES = ['reviewer-agy-01', 'reviewer-codex-01'];

/** How a run of the scenario draws its kill instants, how many cycles it runs and from which seed. */
export interface ResetCrashRandomOptions {
  cycles: number;
  instant: 'line' | 'time';
  /** The PRNG's seed (MAM_TEST_SEED overrides it); printed with every failure. */
  seed: number;
  /** The whole test's limit (ms). */
  timeoutMs: number;
}

/** Declares the scenario's describe block: one sandbox, `cycles` killed runs each followed by reruns to completion. */
export function describeResetCrashRandom(opts: ResetCrashRandomOptions): void {
  const CYCLES = opts.cycles;
  describe(`reset killed with SIGKILL at random instants (${opts.instant}), then rerun to completion`, () => {
    let k: Awaited<ReturnType<typeof resetSandbox>>;
    beforeAll(async () => {
      k = await resetSandbox([
        { name: NAMES[0] ?? '', agent: 'agy', role: 'reviewer' },
        { name: NAMES[1] ?? '', agent: 'codex', role: 'reviewer' },
      ]);
    }, 60_000);
    afterAll(async () => {
      await k?.dispose();
    });

    async function ids(): Promise<(string | null)[]> {
      const rows = (await k.sb.registry.snapshot()).herdr_sessions;
      return NAMES.map((n) => {
        const r = rows.find((x) => x.name === n);
        return r === undefined ? null : recordedId(r);
      });
    }

    function onDisk(): string[] {
      const out: string[] = [];
      for (const d of [join(k.sb.home, '.gemini', 'antigravity-cli', 'conversations'), join(k.sb.home, '.codex', 'sessions')]) {
        if (existsSync(d)) out.push(...readdirSync(d, { recursive: true }).map(String));
      }
      return out;
    }

    // Runs `mam reset --yes` as a child, SIGKILLed at `kill` (never when null): after `ms` of its run, or as its `line`-th
    // trace line arrives; resolves with its exit code (-9 when killed), how long it ran and how many lines it printed.
    function childRun(kill: { ms: number } | { line: number } | null): Promise<{ code: number | null; ms: number; lines: number }> {
      const t0 = performance.now();
      const argv = opts.instant === 'line' ? [MAM_BIN] : ['--import', 'tsx', join(ROOT, 'src/cli/mam.ts')];
      const child = spawn(process.execPath, [...argv, 'reset', '--workspace', k.sb.workspace, '--yes'], {
        cwd: ROOT,
        env: { ...k.sb.env, MAM_ONBOARD_WAIT_S: '8' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let lines = 0;
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        lines += chunk.split('\n').length - 1;
        if (kill !== null && 'line' in kill && lines >= kill.line) child.kill('SIGKILL');
      });
      const timer = kill !== null && 'ms' in kill ? setTimeout(() => child.kill('SIGKILL'), kill.ms) : undefined;
      return new Promise((res) =>
        child.on('exit', (c, s) => {
          clearTimeout(timer);
          res({ code: s === 'SIGKILL' ? -9 : c, ms: performance.now() - t0, lines });
        }),
      );
    }

    it(`survives ${CYCLES} SIGKILLs at random instants`, async () => {
      const { random: rand, seed } = seededRandom(opts.seed);
      // One unkilled child run: its duration bounds the random instants (and it must finish on its own).
      const first = await ids();
      const measured = await childRun(null);
      expect(measured.code, `seed ${seed}`).toBe(0);
      const after0 = await ids();
      expect(after0.every((x, i) => x !== null && x !== first[i])).toBe(true);
      const span = measured.ms;
      // The trace lines of a whole run (the table's lines after them are not drawn: a kill there lands after the work).
      const traced = Math.max(2, measured.lines - 4);
      let killed = 0;
      let reconciled = 0;
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const before = await ids();
        expect(before.every((x) => x !== null), `cycle ${cycle}: a row lost before the run`).toBe(true);
        const at = opts.instant === 'line' ? { line: 1 + Math.floor(rand() * (traced - 1)) } : { ms: Math.floor(rand() * span) };
        const ctx = `seed ${seed}, cycle ${cycle}, kill ${'line' in at ? `at trace line ${at.line} of ~${traced}` : `after ${at.ms} ms of ~${Math.round(span)} ms`}`;
        const run = await childRun(at);
        if (run.code === -9) killed++;
        else expect(run.code, ctx).toBe(0);
        // The guard a killed run leaves never blocks: it is absent or stale.
        const guard = await new LoopGuard(k.sb.workspace, { ports: k.sb.ports() }).inspect();
        expect(guard.kind === 'absent' || guard.kind === 'stale', `${ctx}: guard ${guard.kind}`).toBe(true);
        const trace: string[] = [];
        const outs: string[] = [];
        let out = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
        outs.push(`${out.exitCode} ${out.kind} ${out.message}\n${out.table}`);
        for (let i = 0; i < 2 && out.exitCode !== 0; i++) {
          if (out.exitCode === 5) {
            // Killed during onboarding (row registered, id not pinned): a rerun repeats no stop or create and exits 5
            // until the id is recorded — by the reconciler, as the reference tests' `_wait_reconcile_idle` does.
            const mark = trace.length;
            const again = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
            outs.push(`${again.exitCode} ${again.kind} (rerun while created)\n${again.table}`);
            expect(again.exitCode, `${ctx}\n${outs.join('\n')}`).toBe(5);
            expect(trace.slice(mark), ctx).toEqual([]);
            const rec = await reconcile(k.sb.workspace, { apply: true, ports: k.sb.ports(), home: k.sb.home, env: k.sb.env });
            outs.push(`reconcile: ${rec.entries.map((e) => `${e.name} ${e.outcome}`).join(', ')}`);
            reconciled++;
          }
          out = await k.planner({}, 'in-process').run({ yes: true, callerEnv: {}, onTrace: (l) => trace.push(l) });
          outs.push(`${out.exitCode} ${out.kind} ${out.message}\n${out.table}`);
        }
        const diag = `${ctx}\n${outs.join('\n')}\n${trace.join('\n')}`;
        // A rerun is never refused by a stale guard (nor by anything else).
        for (const o of outs) expect(o, diag).not.toContain('already running');
        expect(out.exitCode, diag).toBe(0);
        for (const line of out.table.split('\n').slice(1).filter((l) => l.trim() !== '')) expect(line.trim().endsWith(' done'), diag).toBe(true);
        const rows = (await k.sb.registry.snapshot()).herdr_sessions;
        expect(rows.map((r) => r.name).sort(), diag).toEqual([...NAMES].sort());
        expect(rows.every((r) => r.status === 'running'), diag).toBe(true);
        const after = await ids();
        const files = onDisk();
        for (const [i, id] of after.entries()) {
          expect(id, diag).not.toBeNull();
          expect(id, diag).not.toBe(before[i]);
          expect(files.some((f) => f.includes(id ?? '?')), `${diag}\nnew conversation purged`).toBe(true);
        }
        for (const id of before) expect(files.some((f) => f.includes(id ?? '?')), `${diag}\nold conversation left`).toBe(false);
        expect(existsSync(resetSpecPath(k.sb.workspace)), diag).toBe(false);
      }
      // The instants were inside the runs for most cycles (a delay past the end just lets the run finish).
      expect(killed, `seed ${seed}, ${reconciled} cycles needed the reconciler`).toBeGreaterThanOrEqual(CYCLES / 2);
    }, opts.timeoutMs);
  });
}
