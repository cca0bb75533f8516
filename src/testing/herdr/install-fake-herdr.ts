import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { describeError, MamError } from '../../errors.js';
import { fakeHerdrCoreSource } from './fake-herdr-core.js';
import { type FakeHerdrAgentMode, makeFakeHerdrProcIo } from './fake-herdr-proc-io.js';
import { fakeHerdrScriptMain, type FakeHerdrHook, type FakeHerdrScriptConfig } from './fake-herdr-script.js';
import { seedFakeHerdrState } from './fake-herdr-state-file.js';
import { makeFakeHerdrStoreIo } from './fake-herdr-store-io.js';
import type { FakeHerdrState } from './fake-herdr-types.js';
import { checkFakeHerdrArgs } from '../testing-args.js';

/**
 * Options of {@link installFakeHerdr}.
 * @public
 */
export interface InstallFakeHerdrOptions {
  /** The JSON state file the executable answers from (absolute). */
  statePath: string;
  /** Log every call as a JSON line `{argv, pid, ts}` here. */
  spyLogPath?: string;
  /** Run a command before answering a chosen call. */
  hook?: FakeHerdrHook;
  /** Seed the state file with this state; without it a missing file gets a fresh state and an existing one is kept. */
  state?: FakeHerdrState;
  /** How often a pending `agent wait` looks at the state file again (ms, default 25). */
  pollMs?: number;
  /**
   * `agent start`: `auto` (default) spawns the kind's executable when the PATH the fake herdr runs with has a fake agent of
   * that name (see `installFakeAgents`) and simulates the agent otherwise (a real CLI is never started by accident); `spawn`
   * always spawns what PATH has (a missing executable fails the start); `simulate` never spawns.
   * A spawned agent is tracked by pid: `/exit` + Enter sends it SIGTERM, `pane close` SIGKILL, and once it is dead it is gone.
   */
  agents?: FakeHerdrAgentMode;
  /** A spawned agent that never prints a `ready` line counts as ready this long after its spawn (ms, default 1500). */
  readyAfterMs?: number;
}

/**
 * The fake executable's whole text: the shared fake herdr implementation plus its process shell, with `config` baked in.
 * @public
 */
export function fakeHerdrScriptText(config: FakeHerdrScriptConfig): string {
  return [
    '#!/usr/bin/env node',
    '// Fake herdr (herdr 0.8 CLI semantics over a JSON state file), written by installFakeHerdr from @mam/core/testing. Reinstall rather than edit.',
    fakeHerdrCoreSource(),
    `const main = (${fakeHerdrScriptMain.toString()});`,
    `const makeStoreIo = (${makeFakeHerdrStoreIo.toString()});`,
    `const makeProcIo = (${makeFakeHerdrProcIo.toString()});`,
    "Promise.all([import('node:fs'), import('node:child_process')])",
    `  .then(([fs, childProcess]) => main(lib, ${JSON.stringify(config)}, { fs, childProcess, storeIo: makeStoreIo(fs), makeProcIo }))`,
    '  .then(',
    '  (code) => { process.exitCode = code; },',
    "  (err) => { process.stderr.write('fake herdr: ' + String((err && err.stack) || err) + '\\n'); process.exitCode = 101; },",
    ');',
    '',
  ].join('\n');
}

// Runs at every install: embedded code that reaches outside itself (e.g. coverage instrumentation) fails here, loudly, not in a child.
function checkEmbeddable(): void {
  // The core answers a call, and the process io builds from its own text alone (it is embedded too).
  const io = `typeof (${makeFakeHerdrProcIo.toString()})({ fs: { existsSync: () => false }, env: {} }, { mode: 'auto', readyAfterMs: 1, outputDir: '/' }).spawn`;
  const probe = `${fakeHerdrCoreSource()}\nconst o = lib.answer.answer(lib.model.newState(), ['agent', 'list'], 0, {}).outcome;\n${io} === 'function' ? o : null;`;
  let outcome: unknown;
  try {
    outcome = vm.runInNewContext(probe, {}, { timeout: 5_000 });
  } catch (err) {
    throw new MamError('FAKE_HERDR_NOT_EMBEDDABLE', `the fake herdr implementation cannot run outside this process (was it instrumented?): ${describeError(err)}`, {}, { cause: err });
  }
  if ((outcome as { exitCode?: unknown } | undefined)?.exitCode !== 0) {
    throw new MamError('FAKE_HERDR_NOT_EMBEDDABLE', 'the embedded fake herdr implementation answered a probe wrongly', { outcome });
  }
}

/**
 * What the executable is baked with for `opts` (absolute paths): the defaults of every option filled in.
 * @internal
 */
export function fakeHerdrScriptConfig(opts: InstallFakeHerdrOptions): FakeHerdrScriptConfig {
  return {
    statePath: opts.statePath, spyLogPath: opts.spyLogPath ?? null, hook: opts.hook ?? null, pollMs: opts.pollMs ?? 25,
    agents: { mode: opts.agents ?? 'auto', readyAfterMs: opts.readyAfterMs ?? 1500, outputDir: `${opts.statePath}.agents` },
  };
}

/**
 * Writes an executable fake `herdr` into `binDir` that answers the real CLI's argv with its exact output over a JSON state file;
 * resolves to the executable's path (`<binDir>/herdr`).
 *
 * @example
 * ```ts
 * const bin = await installFakeHerdr(binDir, { statePath: join(dir, 'herdr.json'), spyLogPath: join(dir, 'spy.jsonl') });
 * await updateFakeHerdrState(statePath, (e) => e.addAgent({ name: 'reviewer', kind: 'claude' }));
 * const herdr = new HerdrCli({ bin });
 * ```
 * @public
 */
export async function installFakeHerdr(binDir: string, opts: InstallFakeHerdrOptions): Promise<string> {
  checkFakeHerdrArgs(binDir, opts);
  const statePath = path.resolve(opts.statePath);
  const spyLogPath = opts.spyLogPath === undefined ? undefined : path.resolve(opts.spyLogPath);
  checkEmbeddable();
  await fs.mkdir(binDir, { recursive: true });
  await fs.mkdir(path.dirname(statePath), { recursive: true });
  const exists = await fs.access(statePath).then(() => true, () => false);
  if (opts.state !== undefined || !exists) await seedFakeHerdrState(statePath, opts.state);
  const config = fakeHerdrScriptConfig({ ...opts, statePath, ...(spyLogPath === undefined ? {} : { spyLogPath }) });
  const file = path.join(binDir, 'herdr');
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, fakeHerdrScriptText(config), { mode: 0o755 });
  await fs.chmod(tmp, 0o755);
  await fs.rename(tmp, file);
  return file;
}
