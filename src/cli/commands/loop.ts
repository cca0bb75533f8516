// mam loop --creator NAME --task TEXT [--workspace WS] [--home DIR] [--wait-ms MS] [--quiescence-ms MS] [--timeout-s S] [--json] → exit 0 completed, 1 refused or failed, 2 usage, 129/130/143 interrupted.
import { resolve } from 'node:path';
import { parseOptions } from './parse-options.js';
import { autopinLoopDeps, type LoopOutcome, type LoopTiming, MamError, type Ports, runLoop } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const USAGE = 'usage: mam loop --creator NAME --task TEXT [--workspace WS] [--home DIR] [--wait-ms MS] [--quiescence-ms MS] [--timeout-s S] [--json]';
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

function usage(io: Io, why: string): number {
  io.stderr(`mam loop: ${why}\n${USAGE}\n`);
  return 2;
}

function number(value: string | undefined, name: string, scale = 1): number | undefined | string {
  if (value === undefined) return undefined;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) return `--${name} must be a number, got ${JSON.stringify(value)}`;
  return Number(value) * scale;
}

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
export async function loopCommand(argv: string[], io: Io, opts: { ports?: Partial<Ports> } = {}): Promise<number> {
  let values;
  try {
    ({ values } = parseOptions({
      args: argv,
      options: {
        creator: { type: 'string' }, task: { type: 'string' }, workspace: { type: 'string' }, home: { type: 'string' },
        'wait-ms': { type: 'string' }, 'quiescence-ms': { type: 'string' }, 'timeout-s': { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    return usage(io, (err as Error).message);
  }
  if (values.help === true) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (values.creator === undefined || values.creator === '') return usage(io, '--creator is required');
  if (values.task === undefined || values.task.trim() === '') return usage(io, '--task is required');
  const timing: Partial<LoopTiming> = {};
  for (const [flag, key, scale] of [['wait-ms', 'waitMs', 1], ['quiescence-ms', 'quiescenceMs', 1], ['timeout-s', 'maxMs', 1000]] as const) {
    const n = number(values[flag], flag, scale);
    if (typeof n === 'string') return usage(io, n);
    if (n !== undefined) timing[key] = n;
  }
  const workspace = resolve(values.workspace ?? process.cwd());
  const json = values.json === true;
  const trace = json ? io.stderr : io.stdout;
  const abort = new AbortController();
  let caught: string | null = null;
  const onSignal = (sig: NodeJS.Signals): void => {
    caught ??= sig;
    abort.abort(new Error(`interrupted by ${sig}`));
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  try {
    const deps = autopinLoopDeps(workspace, { ...(opts.ports === undefined ? {} : { ports: opts.ports }), ...(values.home === undefined ? {} : { home: resolve(values.home) }) });
    const out = await runLoop({
      workspace, creator: values.creator, task: values.task, deps, timing, signal: abort.signal,
      onTrace: (line) => trace(`${line}\n`), ...(opts.ports === undefined ? {} : { ports: opts.ports }),
    });
    if (json) io.stdout(`${JSON.stringify(out)}\n`);
    else (out.kind === 'completed' ? io.stdout : io.stderr)(`${summary(out)}\n`);
    if (json && out.kind !== 'completed') io.stderr(`${summary(out)}\n`);
    return exitOf(out, caught);
  } catch (err) {
    if (!(err instanceof MamError)) throw err;
    io.stderr(`mam loop: ${err.message}\n`);
    return 1;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}
