// The sandbox's fake herdr answered in the test's process: the very shell the installed executable runs
// (fakeHerdrScriptMain over the same state file, spy log and agent processes), called for each argv without starting a
// node process. A reset makes dozens of herdr calls; through the executable each costs a node start, here none. The
// herdr a reset meets is the same implementation either way: only the transport differs (kept proven by one
// executable-based case per scenario).
import * as childProcess from 'node:child_process';
import * as fs from 'node:fs';
import { HerdrCommandPort } from '../../src/herdr/command-port.js';
import type { HerdrPort } from '../../src/ports/herdr.js';
import { buildFakeHerdrCore } from '../../src/testing/herdr/fake-herdr-core.js';
import { makeFakeHerdrProcIo } from '../../src/testing/herdr/fake-herdr-proc-io.js';
import { fakeHerdrScriptMain } from '../../src/testing/herdr/fake-herdr-script.js';
import { fakeHerdrScriptConfig } from '../../src/testing/herdr/install-fake-herdr.js';
import { makeFakeHerdrStoreIo } from '../../src/testing/herdr/fake-herdr-store-io.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';

/** A herdr port over `sb`'s fake herdr state, answered in this process (agents spawned as buildSandbox's executable does). */
export function inProcessHerdr(sb: Sandbox, env: Record<string, string | undefined> = sb.env): HerdrPort {
  const lib = buildFakeHerdrCore();
  // The options buildSandbox installs its executable with.
  const config = fakeHerdrScriptConfig({ statePath: sb.herdrStatePath, spyLogPath: sb.spyLogPath, agents: 'spawn' });
  const mods = { fs, childProcess, storeIo: makeFakeHerdrStoreIo(fs), makeProcIo: makeFakeHerdrProcIo };
  const own: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) own[k] = v;
  return new HerdrCommandPort(async (argv, ctx) => {
    let stdout = '';
    let stderr = '';
    const abort = new AbortController();
    const deadline = ctx.deadlineMs;
    const timer = deadline === undefined ? undefined : setTimeout(() => abort.abort(), deadline);
    try {
      const exitCode = await fakeHerdrScriptMain(lib, config, mods, {
        argv,
        env: own,
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        signal: abort.signal,
      });
      if (abort.signal.aborted && deadline !== undefined) return { kind: 'timed_out', afterMs: deadline, stdout, stderr };
      return { kind: 'exited', exitCode, stdout, stderr };
    } finally {
      clearTimeout(timer);
    }
  });
}
