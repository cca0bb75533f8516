import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodePorts } from '../../src/node/node-ports.js';
import { ResetPlanner } from '../../src/reset/index.js';
import { installFakeHerdr } from '../../src/testing/herdr/install-fake-herdr.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox, SandboxSessionSpec } from '../../src/testing/sandbox/sandbox-types.js';
import { inProcessHerdr } from './in-process-herdr.js';

export const FAST = { captureMs: 8000, exitMs: 8000, readyMs: 8000, pollMs: 100 };

/**
 * How a planner reaches the sandbox's fake herdr: the installed executable, a node start per call (the transport of a
 * real run), or the same implementation answered in this process (test/helpers/in-process-herdr.ts), for the reruns
 * that only finish what the run under test left.
 */
export type ResetHerdr = 'executable' | 'in-process';

/** A sandbox with live fake agents, and a planner over its workspace with the sandbox's ports, home and env. */
export async function resetSandbox(sessions: SandboxSessionSpec[], envOver: Record<string, string> = {}): Promise<{ sb: Sandbox; root: string; planner: (env?: Record<string, string>, herdr?: ResetHerdr) => ResetPlanner; dispose: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'mam-reset-e2e-'));
  const sb = await buildSandbox(join(root, 'sb'), { sessions });
  const planner = (env: Record<string, string> = {}, herdr: ResetHerdr = 'executable'): ResetPlanner => {
    const all = { ...sb.env, ...envOver, ...env };
    const ports = nodePorts({ env: all, herdrBin: sb.herdrBin });
    if (herdr === 'in-process') ports.herdr = inProcessHerdr(sb, all);
    return new ResetPlanner(sb.workspace, { ports, lifecycle: { home: sb.home, env: all, timeouts: FAST } });
  };
  const dispose = async (): Promise<void> => {
    await sb.stopAll().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  return { sb, root, planner, dispose };
}

/** Reinstalls the sandbox's fake herdr (state kept) with a hook before every call of `verb`. */
export async function hookHerdr(sb: Sandbox, verb: string, command: string): Promise<void> {
  await installFakeHerdr(sb.binDir, { statePath: sb.herdrStatePath, spyLogPath: sb.spyLogPath, agents: 'spawn', hook: { match: verb, command } });
}

/** The herdr calls logged so far, as argv lists. */
export function spyCalls(sb: Sandbox): string[][] {
  if (!existsSync(sb.spyLogPath)) return [];
  return readFileSync(sb.spyLogPath, 'utf8').split('\n').filter((l) => l !== '').map((l) => (JSON.parse(l) as { argv: string[] }).argv);
}
