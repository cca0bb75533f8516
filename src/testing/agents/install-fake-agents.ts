import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { describeError, MamError } from '../../errors.js';
import { AGENT_NAMES, type AgentName } from '../../ids/agent-names.js';
import { fakeAgentCoreSource } from './fake-agent-core.js';
import { checkFakeAgentsArgs } from '../testing-args.js';
import { fakeAgentMain } from './fake-agent-main.js';
import type { FakeAgentConfig } from './fake-agent-types.js';

/**
 * Options of {@link installFakeAgents}.
 * @public
 */
export interface InstallFakeAgentsOptions {
  /** The sandbox home every fake agent writes its artifacts under (absolute). */
  home: string;
  /** Where running fake agents record themselves (default `<binDir>/.fake-agents`, see {@link fakeAgentRunDir}). */
  runDir?: string;
  /** Which agents to install (default: every built-in agent). */
  agents?: readonly AgentName[];
  /** A Unix socket every started agent holds a connection to and exits when it closes (see `FakeAgentConfig.lifeline`). */
  lifeline?: string;
}

/**
 * The first line after the shebang of every fake agent executable: how the fake herdr (in `auto` mode) tells a fake agent it
 * may spawn from a real CLI it must not.
 * @public
 */
export const FAKE_AGENT_MARKER = '// @mam/core fake agent';

/**
 * The default directory where the fake agents installed in `binDir` record themselves (`<pid>.json` each).
 * @public
 */
export function fakeAgentRunDir(binDir: string): string {
  return path.join(path.resolve(binDir), '.fake-agents');
}

// The bin dir has no node_modules: better-sqlite3 is required by absolute path, resolved from this module's own location
// (never a bundler's `require` shim, which has no `.resolve`).
function sqliteEntry(): string {
  return createRequire(import.meta.url).resolve('better-sqlite3');
}

/**
 * One fake agent executable's whole text: the shared implementation, its process shell, and `config` baked in.
 * @public
 */
export function fakeAgentScriptText(config: FakeAgentConfig): string {
  const node = /\s/.test(process.execPath) ? '/usr/bin/env node' : process.execPath;
  return [
    `#!${node}`,
    `${FAKE_AGENT_MARKER}: ${config.agent}. Written by installFakeAgents from @mam/core/testing. Reinstall rather than edit.`,
    fakeAgentCoreSource(),
    `const main = (${fakeAgentMain.toString()});`,
    `const config = ${JSON.stringify(config)};`,
    "Promise.all([import('node:fs'), import('node:path'), import('node:crypto'), import('node:module'), import('node:net')])",
    '  .then(([fs, path, crypto, mod, net]) => {',
    '    let Database;',
    '    const database = () => (Database ??= mod.createRequire(config.sqliteModule)(config.sqliteModule));',
    '    return main(lib, config, { fs, path, crypto, database, net });',
    '  })',
    '  .then(',
    '    (code) => { if (code !== undefined) process.exitCode = code; },',
    `    (err) => { process.stderr.write(config.agent + ' (fake): ' + String((err && err.stack) || err) + '\\n'); process.exitCode = 70; },`,
    '  );',
    '',
  ].join('\n');
}

// Runs at every install: embedded code that reaches outside itself (e.g. coverage instrumentation) fails here, loudly.
function checkEmbeddable(): void {
  let key: unknown;
  try {
    key = vm.runInNewContext(`${fakeAgentCoreSource()}\nlib.base.claudeProjectKey('/a b/c');`, {}, { timeout: 5_000 });
  } catch (err) {
    throw new MamError('FAKE_AGENTS_NOT_EMBEDDABLE', `the fake agent implementation cannot run outside this process (was it instrumented?): ${describeError(err)}`, {}, { cause: err });
  }
  if (key !== '-a-b-c') throw new MamError('FAKE_AGENTS_NOT_EMBEDDABLE', 'the embedded fake agent implementation answered a probe wrongly', { key });
}

/**
 * Writes executables named like each agent CLI (`claude`, `agy`, `codex`, `grok`, `hermes`, `opencode`) into `binDir`: one
 * shared Node script that, started by the fake herdr or directly, writes a realistic conversation for its agent under
 * `home` (the layouts the adapters read), honours `--session-id <id>` (claude, grok) and `--resume`/`-r`/`--session <id>`,
 * prints `ready` then `session <id>`, stays alive until SIGTERM (a clean exit: code 0, removing what the real CLI removes),
 * and fails `--version` and any start with code N when `MAM_FAKE_<AGENT>_PREFLIGHT_FAIL=N` is set.
 *
 * @example
 * ```ts
 * await installFakeAgents(binDir, { home });
 * const child = spawn(join(binDir, 'claude'), ['--session-id', id], { cwd: workspace, env: { ...env, HOME: home } });
 * ```
 * @public
 */
export async function installFakeAgents(binDir: string, opts: InstallFakeAgentsOptions): Promise<void> {
  checkFakeAgentsArgs(binDir, opts);
  checkEmbeddable();
  const home = path.resolve(opts.home);
  const runDir = path.resolve(opts.runDir ?? fakeAgentRunDir(binDir));
  const sqliteModule = sqliteEntry();
  await fs.mkdir(binDir, { recursive: true });
  await fs.mkdir(runDir, { recursive: true });
  for (const agent of opts.agents ?? AGENT_NAMES) {
    const file = path.join(binDir, agent);
    const tmp = `${file}.${process.pid}.tmp`;
    const config: FakeAgentConfig = { agent, home, runDir, sqliteModule, ...(opts.lifeline === undefined ? {} : { lifeline: opts.lifeline }) };
    await fs.writeFile(tmp, fakeAgentScriptText(config), { mode: 0o755 });
    await fs.chmod(tmp, 0o755);
    await fs.rename(tmp, file);
  }
}
