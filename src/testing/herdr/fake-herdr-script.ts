import type * as NodeChildProcess from 'node:child_process';
import type * as NodeFs from 'node:fs';
import type { FakeHerdrLib } from './fake-herdr-core.js';
import type { FakeHerdrStoreIo } from './fake-herdr-core-store.js';
import type { FakeHerdrProcConfig, makeFakeHerdrProcIo } from './fake-herdr-proc-io.js';
import type { FakeHerdrEnv, FakeHerdrOutcome, FakeHerdrPending } from './fake-herdr-types.js';

/**
 * A command the fake executable runs synchronously before answering a chosen call (the call's argv is in `FAKE_HERDR_ARGV`, its number in `FAKE_HERDR_CALL`).
 * @public
 */
export type FakeHerdrHook = { command: string } & ({ atCall: number } | { match: string });

/**
 * What the installer bakes into the executable.
 * @public
 */
export interface FakeHerdrScriptConfig {
  statePath: string;
  spyLogPath: string | null;
  hook: FakeHerdrHook | null;
  pollMs: number;
  /** Agent processes (absent: simulated, as before agents were spawned). */
  agents?: FakeHerdrProcConfig;
}

/**
 * Node modules the script's bootstrap loads (a plain `import()` there: test runners rewrite dynamic imports in compiled code).
 * @public
 */
export interface FakeHerdrScriptModules {
  fs: typeof NodeFs;
  childProcess: typeof NodeChildProcess;
  /** The state file's I/O, from `makeFakeHerdrStoreIo(fs)`. */
  storeIo: FakeHerdrStoreIo;
  /** Builds the agent-process io (`makeFakeHerdrProcIo`); absent: agents are simulated. */
  makeProcIo?: typeof makeFakeHerdrProcIo;
}

/**
 * What one run of the fake executable's shell reads and writes: in the installed script, its own process (argv,
 * environment, stdout, stderr); in a test's process, one call of a runner that answers without starting a process.
 * @public
 */
export interface FakeHerdrScriptHost {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Ends a pending answer (a wait or a hang) early: the run then resolves with exit code 124. */
  signal?: AbortSignal;
}

/**
 * The fake executable's process shell: spy log, hook, locked state-file round trips, and polling for waits.
 *
 * Runs inside the installed `herdr` script (its source text is embedded there), with its own process as the host; or in
 * a test's process for one call, with the host a runner gives (the same code, no process start). That is why it may
 * read the environment, the wall clock and spawn the hook. Self-contained, see `fakeHerdrBase`.
 * @public
 */
export async function fakeHerdrScriptMain(lib: FakeHerdrLib, config: FakeHerdrScriptConfig, mods: FakeHerdrScriptModules, given?: FakeHerdrScriptHost): Promise<number> {
  const { fs, childProcess } = mods;
  const host: FakeHerdrScriptHost = given ?? {
    argv: process.argv.slice(2),
    env: process.env,
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  };
  const argv = [...host.argv];
  const env: FakeHerdrEnv = {};
  if (host.env['HERDR_SESSION'] !== undefined) env.HERDR_SESSION = host.env['HERDR_SESSION'];
  if (host.env['HERDR_PANE_ID'] !== undefined) env.HERDR_PANE_ID = host.env['HERDR_PANE_ID'];
  const io = mods.storeIo;
  const procs = config.agents === undefined || mods.makeProcIo === undefined
    ? undefined
    : mods.makeProcIo({ fs, childProcess, env: host.env, now: () => Date.now() }, config.agents);
  // Resolves when the host gives up on this call (never in the installed script, whose caller kills it instead).
  const abandoned = new Promise<void>((resolve) => {
    if (host.signal === undefined) return;
    if (host.signal.aborted) resolve();
    else host.signal.addEventListener('abort', () => resolve(), { once: true });
  });

  if (config.spyLogPath !== null) fs.appendFileSync(config.spyLogPath, `${JSON.stringify({ argv, pid: process.pid, ts: Date.now() })}\n`);
  const call = lib.store.update(io, config.statePath, (state) => ({ state, result: lib.answer.beginCall(state) }));
  const hook = config.hook;
  if (hook !== null && ('atCall' in hook ? hook.atCall === call : hook.match === lib.answer.verbOf(argv))) {
    // Outside the state lock: the hook may run herdr itself.
    childProcess.spawnSync(hook.command, {
      shell: true,
      stdio: 'ignore',
      env: { ...host.env, FAKE_HERDR_ARGV: JSON.stringify(argv), FAKE_HERDR_CALL: String(call) },
    });
  }

  let resume: FakeHerdrPending | undefined;
  for (;;) {
    const outcome = lib.store.update<FakeHerdrOutcome>(io, config.statePath, (state) => {
      const opts = resume === undefined ? { env } : { resume };
      const r = lib.answer.answer(state, argv, Date.now(), procs === undefined ? opts : { ...opts, procs });
      return { state: r.state, result: r.outcome };
    });
    if (outcome.type === 'exit') {
      if (outcome.stdout !== '') host.stdout(outcome.stdout);
      if (outcome.stderr !== '') host.stderr(outcome.stderr);
      return outcome.exitCode;
    }
    if (outcome.type === 'hang') {
      // Never answers; whoever called gives up and kills it (or, in a test's process, abandons the call).
      if (host.signal === undefined) {
        await new Promise<void>(() => {
          setInterval(() => undefined, 1 << 30);
        });
      }
      await abandoned;
      return 124;
    }
    resume = outcome.resume;
    const ms = Math.min(config.pollMs, Math.max(0, outcome.wakeAt - Date.now()));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), abandoned]);
    clearTimeout(timer);
    if (host.signal?.aborted === true) return 124;
  }
}
