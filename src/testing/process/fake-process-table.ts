import { PortError } from '../../errors.js';
import type { FileHolder, ProcessInfo, ProcessPort, RunOptions, RunResult } from '../../ports/process.js';
import type { FakeProcess, FakeProcessTableOptions, FakeRunCall, FakeRunHandler } from './fake-process.js';

// Lexical normalisation only (no filesystem behind a fake): collapse `//`, `/./` and `x/..`, drop a trailing slash.
function normalise(path: string): string {
  const abs = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (part !== '..' || !abs) parts.push(part);
  }
  return (abs ? '/' : '') + parts.join('/') || (abs ? '/' : '.');
}

function basename(path: string): string {
  return path.split('/').filter((s) => s !== '').pop() ?? '';
}

function copyProcess(p: FakeProcess): FakeProcess {
  return {
    ...p,
    argv: [...p.argv],
    ...(p.openFiles === undefined ? {} : { openFiles: [...p.openFiles] }),
    ...(p.env === undefined ? {} : { env: { ...p.env } }),
  };
}

/**
 * An in-memory {@link ProcessPort}: a process table seeded from literals (argv, start, open files, environment) that records what was asked of it.
 * @example
 * ```ts
 * const self = { pid: 10, ppid: 9, argv: ['node', 'mam', 'purge'] };
 * const table = new FakeProcessTable([{ pid: 9, argv: ['claude', '-r', id] }], { self });
 * table.open(9, '/home/me/.claude/x.lock');
 * await table.holders(['/home/me/.claude/x.lock']); // [{ pid: 9, command: 'claude', path: … }]
 * ```
 * @public
 */
export class FakeProcessTable implements ProcessPort {
  /** Every `run()` call, in order. */
  readonly runs: FakeRunCall[] = [];
  /** How many times `snapshot()` was called (a real one may spawn ps). */
  snapshotCalls = 0;
  /** How many times `holders()` was called (a real one spawns lsof). */
  holdersCalls = 0;
  /** How many times `lookup()` was called. */
  lookupCalls = 0;

  readonly #procs = new Map<number, FakeProcess>();
  readonly #selfPid: number;
  readonly #onRun: FakeRunHandler | undefined;

  /** A table of `processes` plus the caller (`self`, default a `node` process with the next free pid). */
  constructor(processes: readonly FakeProcess[] = [], opts: FakeProcessTableOptions = {}) {
    for (const p of processes) this.add(p);
    const self = opts.self ?? { pid: Math.max(1, ...this.#procs.keys()) + 1, argv: ['node'] };
    if (!this.#procs.has(self.pid)) this.add(self);
    this.#selfPid = self.pid;
    this.#onRun = opts.onRun;
  }

  /** Adds (or replaces) a process. */
  add(proc: FakeProcess): void {
    this.#procs.set(proc.pid, copyProcess(proc));
  }

  /** Removes a process; true when it was there. */
  kill(pid: number): boolean {
    return this.#procs.delete(pid);
  }

  /** Makes `pid` exit without being reaped: it stays in the table as a zombie, without argv, holding nothing. */
  zombify(pid: number): void {
    const p = this.#require(pid);
    p.state = 'zombie';
    delete p.openFiles;
  }

  /** Makes `pid` hold `path` open. */
  open(pid: number, path: string): void {
    const p = this.#require(pid);
    p.openFiles = [...(p.openFiles ?? []), path];
  }

  /** Makes `pid` let go of `path`. */
  close(pid: number, path: string): void {
    const p = this.#require(pid);
    p.openFiles = (p.openFiles ?? []).filter((f) => normalise(f) !== normalise(path));
  }

  /** A copy of one seeded process, or undefined. */
  get(pid: number): FakeProcess | undefined {
    const p = this.#procs.get(pid);
    return p === undefined ? undefined : copyProcess(p);
  }

  /** Every process in the table, by pid; counts the call in `snapshotCalls`. */
  async snapshot(): Promise<ProcessInfo[]> {
    this.snapshotCalls++;
    return [...this.#procs.values()].sort((a, b) => a.pid - b.pid).map(toInfo);
  }

  /** The process of that pid, or null; counts the call in `lookupCalls`. */
  async lookup(pid: number): Promise<ProcessInfo | null> {
    this.lookupCalls++;
    const p = this.#procs.get(pid);
    return p === undefined ? null : toInfo(p);
  }

  /**
   * Every live process holding one of `paths` open (paths compared after lexical normalisation), or whose cwd or an open
   * file lies below one of them (a directory target); counts the call in `holdersCalls`.
   */
  async holders(paths: readonly string[]): Promise<FileHolder[]> {
    this.holdersCalls++;
    const asked = [...new Set(paths)];
    const out: FileHolder[] = [];
    for (const p of [...this.#procs.values()].sort((a, b) => a.pid - b.pid)) {
      if (gone(p)) continue;
      const held = [...(p.openFiles ?? []), ...(p.cwd === undefined ? [] : [p.cwd])].map(normalise);
      for (const path of asked) {
        const target = normalise(path);
        if (held.some((h) => h === target || h.startsWith(target.endsWith('/') ? target : `${target}/`))) out.push({ pid: p.pid, command: commOf(p), path });
      }
    }
    return out;
  }

  /** The seeded `cwd` of a live process, or null (none seeded, gone, or a zombie). */
  async cwdOf(pid: number): Promise<string | null> {
    const p = this.#procs.get(pid);
    return p === undefined || gone(p) ? null : (p.cwd ?? null);
  }

  /** The `self` process's pid. */
  selfPid(): number {
    return this.#selfPid;
  }

  /** A copy of the `self` process's environment (empty when it has none). */
  env(): Readonly<Record<string, string | undefined>> {
    return { ...(this.#procs.get(this.#selfPid)?.env ?? {}) };
  }

  /** Records the call in `runs`, then answers with `onRun`; without it rejects with a PortError `CommandNotFound`. */
  async run(file: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
    this.runs.push({ file, args: [...args], opts: { ...opts } });
    const command = [file, ...args].join(' ');
    if (this.#onRun === undefined) throw new PortError('CommandNotFound', 'proc.run', `command not found: ${file}`, { command });
    return this.#onRun(file, args, opts);
  }

  #require(pid: number): FakeProcess {
    const p = this.#procs.get(pid);
    if (p === undefined) throw new PortError('NotFound', 'proc.fake', `no process ${pid} in the fake table`);
    return p;
  }
}

function commOf(p: FakeProcess): string {
  return p.comm ?? basename(p.argv[0] ?? '');
}

function gone(p: FakeProcess): boolean {
  return p.state === 'zombie' || p.state === 'dead';
}

function toInfo(p: FakeProcess): ProcessInfo {
  const comm = commOf(p);
  const argv = gone(p) ? [] : p.argv;
  // Like the real table: a process without argv (a kernel thread, a zombie) shows as `[comm]`.
  const info: ProcessInfo = { pid: p.pid, ppid: p.ppid ?? 0, startedAtMs: p.startedAtMs ?? null, command: argv.length > 0 ? argv.join(' ') : `[${comm}]`, comm };
  if (argv.length > 0) info.argv = [...argv];
  if (p.startTicks !== undefined) info.startTicks = p.startTicks;
  info.state = p.state ?? 'sleeping';
  return info;
}
