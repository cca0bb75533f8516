/**
 * What a process is doing, from the kernel's one-letter state (`/proc/<pid>/stat` field 3, the first letter of
 * `ps -o stat=`): `running` (R), `sleeping` (S, D, I and the other waits), `stopped` (T, t), `zombie` (Z: exited, not yet
 * reaped by its parent), `dead` (X). A zombie or a dead process holds nothing and runs nothing: it is not live.
 * @public
 */
export type ProcessState = 'running' | 'sleeping' | 'stopped' | 'zombie' | 'dead';

/**
 * One process of a process-table snapshot.
 * @public
 */
export interface ProcessInfo {
  /** The process id. */
  pid: number;
  /** The parent's process id. */
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
  /** What the process is doing, when the table says; a `zombie` or `dead` process is not live (see `isLiveProcess`). */
  state?: ProcessState;
}

/**
 * A process that holds one of the asked paths open (lsof semantics).
 * @public
 */
export interface FileHolder {
  /** The holder's process id. */
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
  /** Working directory of the child; a missing one rejects with `NotFound`. */
  cwd?: string;
  /** The complete environment of the child (not merged with the caller's). */
  env?: Record<string, string | undefined>;
  /** Kill the child after this many ms (the result then has `timedOut: true`); absent = no limit. */
  timeoutMs?: number;
  /** Text written to the child's stdin; absent = stdin ignored. */
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
  /** The signal that ended the process (e.g. `SIGTERM`), or null when it exited. */
  signal: string | null;
  /** Everything written to stdout, final newline kept. */
  stdout: string;
  /** Everything written to stderr, final newline kept. */
  stderr: string;
  /** Wall time from spawn to exit, in ms. */
  durationMs: number;
  /** True when `timeoutMs` ran out and the child was killed. */
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
  /**
   * Every process holding any of `paths` open, found in one lsof call however many paths; for a path that is a directory,
   * every process whose working directory is it or below it, or that holds a file below it open, holds it too (a shell
   * `cd`'d into a conversation's dir). Missing paths are ignored.
   */
  holders(paths: readonly string[]): Promise<FileHolder[]>;
  /** The calling process's pid. */
  selfPid(): number;
  /** The calling process's environment. */
  env(): Readonly<Record<string, string | undefined>>;
  /**
   * The working directory of a live process, or null when it cannot be told (no such process, not allowed, no way to read
   * it on this platform). Optional: a port without it tells no cwd, and callers then assume the worst.
   */
  cwdOf?(pid: number): Promise<string | null>;
  /** Runs a command to completion; a non-zero exit is a result, a spawn failure rejects with `CommandNotFound` / `CommandFailed`. */
  run(file: string, args: readonly string[], opts?: RunOptions): Promise<RunResult>;
}
