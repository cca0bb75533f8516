// Temp sandboxes for the test kit's own tests: a canonical root with home/ws/bin/tmp, the sandbox env, and fake agents
// started directly (waiting for their `session <id>` line).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HomeDiscoveryContext } from '../../src/agents/types.js';
import { nodePorts } from '../../src/node/node-ports.js';
import type { Ports } from '../../src/ports/index.js';
import { fakeAgentRunDir } from '../../src/testing/agents/install-fake-agents.js';
import { sandboxEnv } from '../../src/testing/sandbox/sandbox-env.js';
import { stopFakeAgents } from '../../src/testing/sandbox/stop-fake-agents.js';

export interface KitDir {
  root: string;
  home: string;
  ws: string;
  bin: string;
  tmp: string;
  env: Record<string, string>;
  ports: Ports;
  ctx(over?: Partial<HomeDiscoveryContext>): HomeDiscoveryContext;
  /** Stops every fake agent recorded under bin, then removes the root. */
  dispose(): Promise<void>;
}

export async function kitDir(tag: string): Promise<KitDir> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), `mam-kit-${tag}-`)));
  const [home, ws, bin, tmp] = ['home', 'ws', 'bin', 'tmp'].map((d) => join(root, d)) as [string, string, string, string];
  for (const d of [home, ws, bin, tmp]) mkdirSync(d, { recursive: true });
  const env = sandboxEnv(process.env, { home, binDir: bin, tmpDir: tmp });
  const ports = nodePorts({ env });
  return {
    root, home, ws, bin, tmp, env, ports,
    ctx: (over = {}) => ({ workspace: ws, home: home, env, ...over }),
    dispose: async () => {
      await stopFakeAgents({ ...ports, runDir: fakeAgentRunDir(bin), graceMs: 1000 });
      await rm(root, { recursive: true, force: true });
    },
  };
}

export interface Running {
  child: ChildProcess;
  pid: number;
  id: string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}

/** Starts a fake agent directly and waits for its `session <id>` line; rejects with its stderr when it exits first. */
export function startAgent(file: string, args: readonly string[], opts: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<Running> {
  const child = spawn(file, [...args], { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise<Running>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no session line from ${file} within the time; stderr: ${err}`)), opts.timeoutMs ?? 10_000);
    child.stdout.on('data', (d: string) => {
      out += d;
      const m = /^session (\S+)$/m.exec(out);
      if (m !== null && /^ready$/m.test(out)) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid as number, id: m[1] as string, exited, stdout: () => out, stderr: () => err });
      }
    });
    child.stderr.on('data', (d: string) => {
      err += d;
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${e.code ?? e.signal}) before reporting a session: ${err}`));
    });
  });
}

/** Runs a fake agent to completion (`--version`, subcommands, refusals). */
export function runAgent(file: string, args: readonly string[], opts: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(file, [...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** True while `pid` is a live (not zombie) process. */
export async function alive(ports: Ports, pid: number): Promise<boolean> {
  try {
    const stat = await ports.fs.readText(`/proc/${pid}/stat`);
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '');
  } catch {
    return (await ports.proc.lookup(pid)) !== null;
  }
}

/** Polls `fn` until it is true (or throws after `ms`). */
export async function until(fn: () => Promise<boolean> | boolean, ms = 5_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
