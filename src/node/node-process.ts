import { access, readlink } from 'node:fs/promises';
import { isPortError } from '../errors.js';
import type { FileHolder, ProcessInfo, ProcessPort, RunOptions, RunResult } from '../ports/process.js';
import { runCommand } from './proc-run.js';

type ProcessWork = typeof import('./process-work.js');
let loadingWork: Promise<ProcessWork> | undefined;

// What reads the process table and open files (/proc, ps, lsof) is loaded by the first call that reads them, once for the
// process, not when @mam/core is imported.
function processWork(): Promise<ProcessWork> {
  loadingWork ??= import('./process-work.js');
  return loadingWork;
}

/**
 * Options of {@link NodeProcessPort}.
 * @public
 */
export interface NodeProcessPortOptions {
  /** The caller's environment: what `env()` returns, the default environment of `run()`, and the PATH ps and lsof are found on. Defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** Read the process table from `/proc` where it exists (no spawn). Default true; false forces the portable `ps` path. */
  useProc?: boolean;
}

/**
 * The real {@link ProcessPort}: `/proc` (Linux, no spawn) or `ps` under `TZ=UTC0` for the process table, one `lsof` call for holders, execa for commands.
 * A whole in-use check (one snapshot plus one holders call) costs one spawn on Linux and two elsewhere.
 * @example
 * ```ts
 * const proc = new NodeProcessPort();
 * const held = await proc.holders(['/home/me/.gemini/antigravity-cli/presence/abc.lock']);
 * ```
 * @public
 */
export class NodeProcessPort implements ProcessPort {
  readonly #env: Record<string, string | undefined>;
  readonly #useProc: boolean;
  #procAvailable: Promise<boolean> | undefined;

  /** Builds the port; `opts.env` defaults to `process.env`, `opts.useProc` to true. */
  constructor(opts: NodeProcessPortOptions = {}) {
    this.#env = opts.env ?? process.env;
    this.#useProc = opts.useProc ?? true;
  }

  // Decided once per port: is there a Linux /proc to read?
  #hasProc(): Promise<boolean> {
    this.#procAvailable ??= this.#useProc
      ? access('/proc/self/stat').then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
    return this.#procAvailable;
  }

  /** {@inheritDoc ProcessPort.snapshot} */
  async snapshot(): Promise<ProcessInfo[]> {
    const w = await processWork();
    return (await this.#hasProc()) ? w.procSnapshot() : w.psSnapshot(this.#env);
  }

  /** {@inheritDoc ProcessPort.lookup} */
  async lookup(pid: number): Promise<ProcessInfo | null> {
    if (!Number.isSafeInteger(pid) || pid <= 0) return null;
    const w = await processWork();
    if (await this.#hasProc()) return w.readProcProcess(pid, await w.readProcClock());
    return w.psLookup(pid, this.#env);
  }

  /** {@inheritDoc ProcessPort.cwdOf} */
  async cwdOf(pid: number): Promise<string | null> {
    if (!Number.isSafeInteger(pid) || pid <= 0 || !(await this.#hasProc())) return null;
    return readlink(`/proc/${pid}/cwd`).then(
      (p) => (p.endsWith(' (deleted)') ? null : p),
      () => null,
    );
  }

  /** {@inheritDoc ProcessPort.holders} */
  async holders(paths: readonly string[]): Promise<FileHolder[]> {
    const { directoryTargets, lsofOpenFiles, matchHolders, procFdOpenFiles, resolveHolderTargets } = await processWork();
    const targets = await resolveHolderTargets(paths);
    if (targets.size === 0) return [];
    const real = [...targets.keys()];
    const dirs = await directoryTargets(targets);
    try {
      return matchHolders(await lsofOpenFiles(real, this.#env, dirs), targets, dirs);
    } catch (err) {
      // No lsof installed: on Linux the same answer comes from /proc/<pid>/fd and /proc/<pid>/cwd.
      if (isPortError(err, 'CommandNotFound') && (await this.#hasProc())) return matchHolders(await procFdOpenFiles(real, dirs), targets, dirs);
      throw err;
    }
  }

  /** {@inheritDoc ProcessPort.selfPid} */
  selfPid(): number {
    return process.pid;
  }

  /** {@inheritDoc ProcessPort.env} */
  env(): Readonly<Record<string, string | undefined>> {
    return this.#env;
  }

  /** {@inheritDoc ProcessPort.run} */
  run(file: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
    const { env, ...rest } = opts;
    return runCommand(file, args, env ?? this.#env, rest);
  }
}
