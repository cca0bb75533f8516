import { isAbsolute, join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import { knownBusy, noteBusy } from '../../sqlite/busy-memo.js';
import { parseDebugPathsDb } from './debug-paths.js';
import { findOpencodeBinary } from './opencode-binary.js';

/**
 * Where one home's OpenCode keeps its data, and how to run its CLI there.
 * @public
 */
export interface OpencodeLocation {
  /** The home (`ctx.home`). */
  home: string;
  /** `XDG_DATA_HOME/opencode` when the agent env sets it, else `<home>/.local/share/opencode`. */
  dataDir: string;
  /** The database: the `db` line of `opencode debug paths`, else `<dataDir>/opencode.db`. */
  dbPath: string;
  /** The `opencode` executable (PATH, else `<home>/.opencode/bin`), or null. */
  binary: string | null;
  /** The complete environment to run that executable with for this home. */
  runEnv: Record<string, string>;
  /** Where to run it: the home when it exists (so OpenCode never marks the caller's repo), else the temp dir. */
  runCwd(): Promise<string>;
}

/** How long `opencode debug paths` may take. */
const DEBUG_PATHS_TIMEOUT_MS = 10_000;

function usable(v: string | undefined): v is string {
  return v !== undefined && v !== '' && isAbsolute(v) && !v.includes('\0');
}

// The complete environment to run the executable with for this home: the agent env, HOME, PATH, and XDG_DATA_HOME only when usable.
function runEnvOf(env: Readonly<Record<string, string | undefined>>, home: string, pathVar: string | undefined, xdg: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out['HOME'] = home;
  if (pathVar !== undefined) out['PATH'] = pathVar;
  if (xdg === undefined) delete out['XDG_DATA_HOME'];
  return out;
}

/**
 * Finds an OpenCode home's data dir and database. A successful `opencode debug paths` answer is kept per
 * (binary, HOME, XDG_DATA_HOME); a failed run is not kept, so the next call asks again — except a run that timed out,
 * which the rest of the same purge plan (`withBusyMemo`) does not wait for again: a plan looks the store up many times,
 * and an OpenCode that hangs (its database held by another process) would otherwise cost the timeout at every look.
 * @public
 */
export class OpencodeLocator {
  // null: the run succeeded without a `db` line (1.x), so the default path stands.
  readonly #answers = new Map<string, string | null>();
  // The executable found for a (PATH, home): only a found one is kept, so a later install is seen.
  readonly #binaries = new Map<string, string>();
  // The run in flight per key, so concurrent lookups spawn once.
  readonly #pending = new Map<string, Promise<string | null>>();

  /** A locator whose answers live as long as it does; {@link opencodeLocatorOf} gives the one of a set of ports. */
  constructor(
    private readonly fs: FileSystemPort,
    private readonly proc: ProcessPort,
  ) {}

  /**
   * The database {@link OpencodeLocator.locate} gives when `debug paths` names none (no executable, or 1.x):
   * `<dataDir>/opencode.db`, computed without looking at anything; null for a relative home.
   */
  defaultDbPath(home: string, env: Readonly<Record<string, string | undefined>>): string | null {
    if (!usable(home)) return null;
    const xdg = usable(env['XDG_DATA_HOME']) ? env['XDG_DATA_HOME'] : undefined;
    return join(xdg === undefined ? join(home, '.local', 'share', 'opencode') : join(xdg, 'opencode'), 'opencode.db');
  }

  /**
   * The database a kept `debug paths` answer names for this home and env, or null when none was asked yet (or it named
   * none); runs nothing (it only looks for the executable, as {@link OpencodeLocator.locate} does).
   */
  async keptDbPath(home: string, env: Readonly<Record<string, string | undefined>>): Promise<string | null> {
    if (!usable(home)) return null;
    const xdg = usable(env['XDG_DATA_HOME']) ? env['XDG_DATA_HOME'] : undefined;
    const binary = await this.#binary('PATH' in env ? env['PATH'] : this.proc.env()['PATH'], home);
    return binary === null ? null : (this.#answers.get(JSON.stringify([binary, home, xdg ?? null])) ?? null);
  }

  /**
   * Runs `debug paths` at most once per key (every run appends a line to OpenCode's own log), and only once `beforeSpawn`
   * has settled (a bad home rejects it: nothing is run, the default path stands); a kept answer waits for nothing.
   */
  async locate(home: string, env: Readonly<Record<string, string | undefined>>, beforeSpawn?: () => Promise<void>): Promise<OpencodeLocation | null> {
    if (!usable(home)) return null;
    const xdg = usable(env['XDG_DATA_HOME']) ? env['XDG_DATA_HOME'] : undefined;
    const dataDir = xdg === undefined ? join(home, '.local', 'share', 'opencode') : join(xdg, 'opencode');
    // PATH only finds the executable (never a data dir): a sandbox env without one falls back to the caller's.
    const pathVar = 'PATH' in env ? env['PATH'] : this.proc.env()['PATH'];
    // The run environment is built at its first use (a spawn), not on every lookup.
    let built: Record<string, string> | undefined;
    const runEnv = (): Record<string, string> => (built ??= runEnvOf(env, home, pathVar, xdg));
    const binary = await this.#binary(pathVar, home);
    const runCwd = async (): Promise<string> => ((await this.fs.stat(home).then((s) => s.kind === 'dir').catch(() => false)) ? home : this.fs.tmpdir());
    const dbPath = (binary === null ? null : await this.#askDb(binary, home, xdg, runEnv, runCwd, beforeSpawn)) ?? join(dataDir, 'opencode.db');
    return {
      home,
      dataDir,
      dbPath,
      binary,
      get runEnv(): Record<string, string> {
        return runEnv();
      },
      runCwd,
    };
  }

  async #binary(pathVar: string | undefined, home: string): Promise<string | null> {
    const key = JSON.stringify([pathVar ?? null, home]);
    const known = this.#binaries.get(key);
    if (known !== undefined) return known;
    const found = await findOpencodeBinary(this.fs, pathVar, home);
    if (found !== null) this.#binaries.set(key, found);
    return found;
  }

  async #askDb(
    binary: string,
    home: string,
    xdg: string | undefined,
    env: () => Record<string, string>,
    cwd: () => Promise<string>,
    beforeSpawn: (() => Promise<void>) | undefined,
  ): Promise<string | null> {
    const key = JSON.stringify([binary, home, xdg ?? null]);
    if (this.#answers.has(key)) return this.#answers.get(key) ?? null;
    // Nothing runs before the home is known good; a bad one leaves the default path (its caller rejects anyway).
    if (beforeSpawn !== undefined) {
      try {
        await beforeSpawn();
      } catch {
        return null;
      }
      if (this.#answers.has(key)) return this.#answers.get(key) ?? null;
    }
    // A run of this key that timed out earlier in the same plan is not waited for again.
    if (knownBusy(this.fs, timedOutKey(key)) !== undefined) return null;
    // Concurrent lookups of one key (a status of many rows) share one run.
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const run = this.#run(key, binary, env(), cwd).finally(() => this.#pending.delete(key));
    this.#pending.set(key, run);
    return run;
  }

  async #run(key: string, binary: string, env: Record<string, string>, cwd: () => Promise<string>): Promise<string | null> {
    try {
      const r = await this.proc.run(binary, ['debug', 'paths'], { env, cwd: await cwd(), timeoutMs: DEBUG_PATHS_TIMEOUT_MS });
      if (r.timedOut) noteBusy(this.fs, timedOutKey(key), new Error(`opencode debug paths timed out after ${DEBUG_PATHS_TIMEOUT_MS} ms`));
      if (r.failed || r.timedOut) return null;
      const db = parseDebugPathsDb(r.stdout);
      this.#answers.set(key, db);
      return db;
    } catch {
      return null;
    }
  }
}

// The busy-memo name of a `debug paths` run that timed out (the memo's other names are database paths, never this).
const timedOutKey = (key: string): string => `\0opencode debug paths timed out ${key}`;

// One locator per (ProcessPort, FileSystemPort): the `debug paths` answers live as long as the ports, not one adapter.
const locators = new WeakMap<ProcessPort, WeakMap<FileSystemPort, OpencodeLocator>>();

/**
 * The shared {@link OpencodeLocator} of these ports, so every adapter built on them runs `opencode debug paths` at most
 * once per (binary, HOME, XDG_DATA_HOME) for the life of the ports.
 * @public
 */
export function opencodeLocatorOf(fs: FileSystemPort, proc: ProcessPort): OpencodeLocator {
  let byFs = locators.get(proc);
  if (byFs === undefined) {
    byFs = new WeakMap();
    locators.set(proc, byFs);
  }
  let loc = byFs.get(fs);
  if (loc === undefined) {
    loc = new OpencodeLocator(fs, proc);
    byFs.set(fs, loc);
  }
  return loc;
}
