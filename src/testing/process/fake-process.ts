import type { ProcessState, RunOptions, RunResult } from '../../ports/process.js';

/**
 * One process of a {@link FakeProcessTable}, written as a literal.
 * @public
 */
export interface FakeProcess {
  /** The process id. */
  pid: number;
  /** Parent pid; 0 (no parent) when absent. */
  ppid?: number;
  /** The argument vector; the command line is it joined by spaces. */
  argv: string[];
  /** Epoch milliseconds; null (unknown) when absent. */
  startedAtMs?: number;
  /** Clock ticks since boot, as `/proc/<pid>/stat` field 22 would say. */
  startTicks?: number;
  /** Short name; the basename of `argv[0]` when absent. */
  comm?: string;
  /** Paths this process holds open (what lsof would report). */
  openFiles?: string[];
  /** Its working directory: it holds that directory and every directory above it (what lsof's `cwd` entry says). */
  cwd?: string;
  /** Its environment (what `env()` returns when it is the table's `self`). */
  env?: Record<string, string>;
  /** What it is doing; `sleeping` when absent. A `zombie` or `dead` process shows as `[comm]`, without argv, holding nothing. */
  state?: ProcessState;
}

/**
 * Answers a {@link FakeProcessTable.run} call.
 * @public
 */
export type FakeRunHandler = (file: string, args: readonly string[], opts: RunOptions) => RunResult | Promise<RunResult>;

/**
 * One recorded {@link FakeProcessTable.run} call.
 * @public
 */
export interface FakeRunCall {
  /** The executable asked for. */
  file: string;
  /** Its arguments (a copy). */
  args: string[];
  /** The options given (a shallow copy). */
  opts: RunOptions;
}

/**
 * Options of {@link FakeProcessTable}.
 * @public
 */
export interface FakeProcessTableOptions {
  /** The calling process (its pid is `selfPid()`, its env is `env()`); added to the table when missing. */
  self?: FakeProcess;
  /** Answers `run()`; without it every run rejects with `CommandNotFound`. */
  onRun?: FakeRunHandler;
}
