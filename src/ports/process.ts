/**
 * One process of a process-table snapshot.
 * @public
 */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Start time in epoch milliseconds (second resolution from `ps -o lstart=` under `TZ=UTC0`), or null when unknown. */
  startedAtMs: number | null;
  /** Start in clock ticks since boot (field 22 of `/proc/<pid>/stat`), where `/proc` exists. */
  startTicks?: number;
  /** The argument vector, when it could be read exactly (from `/proc/<pid>/cmdline`). */
  argv?: string[];
  /** The command line as one string (argv joined by spaces, or `ps -o args=`). */
  command: string;
  /** The executable's short name (`ps -o comm=`). */
  comm: string;
}

/**
 * A process that holds one of the asked paths open (lsof semantics).
 * @public
 */
export interface FileHolder {
  pid: number;
  /** The holder's short command name as lsof reports it. */
  command: string;
  /** The path it holds, as it was asked. */
  path: string;
}

/**
 * Options of {@link ProcessPort.run}.
 * @public
 */
export interface RunOptions {
  cwd?: string;
  /** The complete environment of the child (not merged with the caller's). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  input?: string;
}

/**
 * The outcome of running a command: the same fields whether it succeeded or not.
 * @public
 */
export interface RunResult {
  /** The command line, for messages. */
  command: string;
  /** Exit code, or null when killed by a signal or timed out. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  /** True unless the command exited 0. */
  failed: boolean;
}

/**
 * The process table, open-file holders, the caller's identity, and running commands.
 * @public
 */
export interface ProcessPort {
  /** One consistent snapshot of every visible process. */
  snapshot(): Promise<ProcessInfo[]>;
  /** One process by pid (liveness and start time, for pid-reuse guards), or null when no such process; cheaper than a snapshot. */
  lookup(pid: number): Promise<ProcessInfo | null>;
  /** Every process holding any of `paths` open, found in one lsof call however many paths. Missing paths are ignored. */
  holders(paths: readonly string[]): Promise<FileHolder[]>;
  /** The calling process's pid. */
  selfPid(): number;
  /** The calling process's environment. */
  env(): Readonly<Record<string, string | undefined>>;
  /** Runs a command to completion; a non-zero exit is a result, a spawn failure rejects with `CommandNotFound` / `CommandFailed`. */
  run(file: string, args: readonly string[], opts?: RunOptions): Promise<RunResult>;
}
