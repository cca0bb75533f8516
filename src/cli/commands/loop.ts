// mam loop --creator NAME --task TEXT [--workspace WS] [--home DIR] [--wait-ms MS] [--quiescence-ms MS] [--timeout-s S] [--agents MODULE] [--json] → exit 0 completed, 1 refused or failed, 2 usage, 129/130/143 interrupted.
import { loadAgentsOption } from './agents-option.js';
import { type Io, runCommand } from './cli-kit.js';
import { autopinLoopDeps } from '../../autopin/autopin-loop-deps.js';
import type { LoopOutcome, LoopTiming } from '../../loop/run-loop-types.js';
import { runLoop } from '../../loop/run-loop.js';
import type { Ports } from '../../ports/index.js';

const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

function exitOf(out: LoopOutcome, signal: string | null): number {
  switch (out.kind) {
    case 'completed':
      return 0;
    case 'aborted':
      return SIGNAL_EXIT[signal ?? 'SIGINT'] ?? 130;
    case 'refused':
    case 'failed':
      return 1;
    default: {
      const never: never = out;
      return never;
    }
  }
}

function summary(out: LoopOutcome): string {
  switch (out.kind) {
    case 'refused':
      return out.message;
    case 'completed':
      return `job ${out.jobId} completed; autopin: ${out.autopin.kind}${out.autopin.reason === undefined ? '' : ` (${out.autopin.reason})`}`;
    case 'failed':
      return `job ${out.jobId} failed at ${out.step}: ${out.reason} (job status: ${out.status})`;
    case 'aborted':
      return `job ${out.jobId} interrupted (job status: ${out.status})`;
    default: {
      const never: never = out;
      return never;
    }
  }
}

/**
 * `mam loop`: runs one job through the creator's agent (see `runLoop`), printing its trace; exit 0 when the job completed.
 * @public
 */
export function loopCommand(argv: string[], io: Io, opts: { ports?: Partial<Ports> } = {}): Promise<number> {
  return runCommand('loop', argv, io, async (ctx) => {
    const creator = ctx.required('creator');
    const task = ctx.required('task');
    const timing: Partial<LoopTiming> = {};
    for (const [flag, key, scale] of [['wait-ms', 'waitMs', 1], ['quiescence-ms', 'quiescenceMs', 1], ['timeout-s', 'maxMs', 1000]] as const) {
      const n = ctx.number(flag, scale);
      if (n !== undefined) timing[key] = n;
    }
    const workspace = await ctx.workspace(false);
    const home = await ctx.givenHome();
    const given = ctx.str('agents');
    const agents = given === undefined ? undefined : await loadAgentsOption(given);
    const trace = ctx.asJson ? io.stderr : io.stdout;
    const abort = new AbortController();
    let caught: string | null = null;
    const onSignal = (sig: NodeJS.Signals): void => {
      caught ??= sig;
      abort.abort(new Error(`interrupted by ${sig}`));
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const s of signals) process.on(s, onSignal);
    try {
      const deps = autopinLoopDeps<string>(workspace, {
        ...(opts.ports === undefined ? {} : { ports: opts.ports }),
        ...(home === undefined ? {} : { home }),
        ...(agents === undefined ? {} : { agents }),
      });
      const out = await runLoop({
        workspace, creator, task, deps, timing, signal: abort.signal,
        onTrace: (line) => trace(`${line}\n`), ...(opts.ports === undefined ? {} : { ports: opts.ports }),
      });
      if (ctx.asJson) ctx.json(out);
      else (out.kind === 'completed' ? io.stdout : io.stderr)(`${summary(out)}\n`);
      if (ctx.asJson && out.kind !== 'completed') io.stderr(`${summary(out)}\n`);
      return exitOf(out, caught);
    } finally {
      for (const s of signals) process.off(s, onSignal);
    }
  });
}
