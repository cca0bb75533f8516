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
 * The fake executable's process shell: spy log, hook, locked state-file round trips, and polling for waits.
 *
 * Runs only inside the installed `herdr` script (its source text is embedded there), never in the library's process:
 * that is why it may read the environment, the wall clock and spawn the hook. Self-contained, see `fakeHerdrBase`.
 * @public
 */
export async function fakeHerdrScriptMain(lib: FakeHerdrLib, config: FakeHerdrScriptConfig, mods: FakeHerdrScriptModules): Promise<number> {
  const { fs, childProcess } = mods;
  const argv = process.argv.slice(2);
  const env: FakeHerdrEnv = {};
  if (process.env['HERDR_SESSION'] !== undefined) env.HERDR_SESSION = process.env['HERDR_SESSION'];
  if (process.env['HERDR_PANE_ID'] !== undefined) env.HERDR_PANE_ID = process.env['HERDR_PANE_ID'];
  const io = mods.storeIo;
  const procs = config.agents === undefined || mods.makeProcIo === undefined
    ? undefined
    : mods.makeProcIo({ fs, childProcess, env: process.env, now: () => Date.now() }, config.agents);

  if (config.spyLogPath !== null) fs.appendFileSync(config.spyLogPath, `${JSON.stringify({ argv, pid: process.pid, ts: Date.now() })}\n`);
  const call = lib.store.update(io, config.statePath, (state) => ({ state, result: lib.answer.beginCall(state) }));
  const hook = config.hook;
  if (hook !== null && ('atCall' in hook ? hook.atCall === call : hook.match === lib.answer.verbOf(argv))) {
    // Outside the state lock: the hook may run herdr itself.
    childProcess.spawnSync(hook.command, {
      shell: true,
      stdio: 'ignore',
      env: { ...process.env, FAKE_HERDR_ARGV: JSON.stringify(argv), FAKE_HERDR_CALL: String(call) },
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
      if (outcome.stdout !== '') process.stdout.write(outcome.stdout);
      if (outcome.stderr !== '') process.stderr.write(outcome.stderr);
      return outcome.exitCode;
    }
    if (outcome.type === 'hang') {
      // Never answers; whoever called gives up and kills it.
      await new Promise<void>(() => {
        setInterval(() => undefined, 1 << 30);
      });
    } else {
      resume = outcome.resume;
      const ms = Math.min(config.pollMs, Math.max(0, outcome.wakeAt - Date.now()));
      await new Promise<void>((resolve) => setTimeout(resolve, ms));
    }
  }
}
