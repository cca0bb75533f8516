import { stopIfAborted } from '../../abort.js';
import * as fs from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { HomeDiscoveryContext } from '../../agents/types.js';
import { AGENT_NAMES, isAgentName } from '../../ids/agent-names.js';
import { nodePorts, resolvePorts } from '../../node/node-ports.js';
import type { Ports } from '../../ports/index.js';
import { SessionRegistry } from '../../registry/session-registry.js';
import { fakeAgentRunDir, installFakeAgents } from '../agents/install-fake-agents.js';
import { createFakeHerdrState } from '../herdr/fake-herdr-editor.js';
import { installFakeHerdr } from '../herdr/install-fake-herdr.js';
import { SandboxError } from './sandbox-error.js';
import { sandboxEnv } from './sandbox-env.js';
import type { Sandbox, SandboxOptions, SandboxSession, SandboxSessionSpec } from './sandbox-types.js';
import type { AgentName } from '../../ids/agent-names.js';
import type { SeedOptions } from './seed-conversation.js';
import { startSandboxSession } from './start-sandbox-session.js';
import { stopFakeAgents } from './stop-fake-agents.js';
import { openLifeline } from './lifeline.js';
import { seedConversation } from './seed-conversation.js';
import { checkSandboxArgs } from '../testing-args.js';

// Before anything is touched: every session must be one a running row may be.
function checkSessions(specs: readonly SandboxSessionSpec[]): void {
  const seen = new Set<string>();
  for (const s of specs) {
    const bad = (why: string): SandboxError => new SandboxError('SANDBOX_INVALID_OPTIONS', `sandbox session ${JSON.stringify(s.name)}: ${why}`, { name: s.name });
    if (typeof s.name !== 'string' || s.name === '') throw bad('a name is required');
    if (seen.has(s.name)) throw bad('the name is used twice');
    seen.add(s.name);
    if (!isAgentName(s.agent)) throw bad(`unknown agent ${JSON.stringify(s.agent)} (expected one of ${AGENT_NAMES.join(', ')})`);
    if (typeof s.role !== 'string' || s.role.trim() === '') throw bad('a running row needs a role');
  }
}

async function freshDir(path: string): Promise<void> {
  const exists = await fs.lstat(path).then(() => true, () => false);
  if (exists) throw new SandboxError('SANDBOX_DIR_NOT_EMPTY', `${path} already exists: a sandbox is built only in a fresh directory, never over one`, { path });
  await fs.mkdir(path, { recursive: true });
}

/**
 * Lays out a sandbox under `dir` — `home/`, `workspace/` (with `.mam/`), `bin/` (the fake herdr, spawning agents, and a fake of every
 * built-in agent), `tmp/`, `herdr/` (state + spy log) — and an env bound to it, then starts `opts.sessions` one at a time through
 * the fake herdr, so that when it resolves every session is registered `running`, live in the fake herdr, its id recorded on
 * its row and its conversation on disk: the starting point for end-to-end tests of reset, stop and purge. When a session
 * fails, every agent already started is stopped and a {@link SandboxError} says which session and why.
 *
 * The sandbox is `AsyncDisposable`: `await using` stops every fake agent and removes what it laid out. Its fake agents hold a
 * lifeline to this process and exit when it ends, even when nobody disposes the sandbox. For a conversation on disk without
 * a process, {@link Sandbox.seed} lays one down in a millisecond or two.
 *
 * @example
 * ```ts
 * await using sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'e2e-')), {
 *   sessions: [{ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' }, { name: 'coder-codex-01', agent: 'codex', role: 'coder' }],
 * });
 * await sb.stopAll(); // a live agent holds its conversation: purge refuses it (in-use) until it is stopped
 * const result = await new PurgeService({ ports: sb.ports() }).purge('auto', sb.sessions[0].id, { home: sb.home });
 * ```
 * @public
 */
export async function buildSandbox(dir: string, opts: SandboxOptions = {}): Promise<Sandbox> {
  checkSandboxArgs(dir, opts);
  const { signal } = opts;
  stopIfAborted(signal);
  const specs = opts.sessions ?? [];
  checkSessions(specs);
  const timeoutMs = opts.startTimeoutMs ?? 20_000;
  if (!(timeoutMs > 3000 && timeoutMs <= 300_000)) throw new SandboxError('SANDBOX_INVALID_OPTIONS', `startTimeoutMs must be more than 3000 and at most 300000 (herdr's agent start rule): ${timeoutMs}`, { startTimeoutMs: timeoutMs });
  const existed = await fs.lstat(resolve(dir)).then(() => true, () => false);
  await fs.mkdir(resolve(dir), { recursive: true });
  const root = await fs.realpath(resolve(dir));
  const [home, workspace, binDir, tmpDir, herdrDir] = ['home', 'workspace', 'bin', 'tmp', 'herdr'].map((d) => join(root, d)) as [string, string, string, string, string];
  for (const d of [home, workspace, binDir, tmpDir, herdrDir]) await freshDir(d);
  await fs.mkdir(join(workspace, '.mam'));
  const env = sandboxEnv(opts.baseEnv ?? resolvePorts().proc.env(), { home, binDir, tmpDir });
  const herdrStatePath = join(herdrDir, 'state.json');
  const spyLogPath = join(herdrDir, 'spy.jsonl');
  const servers = [...new Set(specs.map((s) => s.herdrServer ?? 'default'))];
  const herdrBin = await installFakeHerdr(binDir, { statePath: herdrStatePath, spyLogPath, state: createFakeHerdrState({ sessions: servers }), agents: 'spawn' });
  const lifeline = await openLifeline(tmpDir);
  await installFakeAgents(binDir, { home, ...(lifeline === null ? {} : { lifeline: lifeline.address }) });
  const agentsRunDir = fakeAgentRunDir(binDir);
  const ports = (): Ports => nodePorts({ env, herdrBin });
  const own = ports();
  const registry = new SessionRegistry(workspace, { ports: own });
  const stopAll = () => stopFakeAgents({ fs: own.fs, proc: own.proc, clock: own.clock, runDir: agentsRunDir, herdrStatePath });
  const sessions: SandboxSession[] = [];
  // Stops every agent, cuts the lifeline (an agent SIGKILL could not end goes with it), then removes what the sandbox laid
  // out: the whole directory when the sandbox made it, only its own five subdirectories when the directory was the caller's.
  const dispose = async (): Promise<void> => {
    await stopAll();
    await lifeline?.close();
    for (const d of [home, workspace, binDir, tmpDir, herdrDir]) await fs.rm(d, { recursive: true, force: true, maxRetries: 3 });
    if (!existed) await fs.rm(root, { recursive: true, force: true, maxRetries: 3 });
    else await fs.rmdir(root).catch(() => undefined);
  };
  try {
    stopIfAborted(signal);
    for (const spec of specs) {
      sessions.push(await startSandboxSession({ ports: own, registry, workspace, timeoutMs, agentOutputDir: `${herdrStatePath}.agents` }, spec));
      stopIfAborted(signal);
    }
  } catch (err) {
    // Stopped by the caller's signal: nothing of the sandbox is left behind.
    if (signal?.aborted === true && err === signal.reason) {
      await dispose();
      throw err;
    }
    const stopped = await stopAll().catch(() => null);
    await lifeline?.close();
    if (err instanceof SandboxError) {
      throw new SandboxError(err.code, `${err.message}; the sandbox's agents were stopped`, { ...err.data, started: sessions.map((s) => s.name), stopped }, { cause: err });
    }
    throw err;
  }
  const context = (overrides: Partial<HomeDiscoveryContext> = {}): HomeDiscoveryContext => ({ workspace, home: home, env, ...overrides });
  const seed = async (agent: AgentName, seedOpts?: SeedOptions): Promise<string> => seedConversation({ home, workspace, env, now: own.clock.now() }, agent, seedOpts);
  let disposed: Promise<void> | undefined;
  return {
    dir: root, home, workspace, binDir, tmpDir, env, herdrBin, herdrStatePath, spyLogPath, agentsRunDir, registry, sessions, ports, context, stopAll, seed,
    [Symbol.asyncDispose]: () => (disposed ??= dispose()),
  };
}
