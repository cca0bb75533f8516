// Runs a real CLI with exactly the sandbox's environment; live runs get their own process group so the test can stop,
// continue or SIGKILL the CLI with everything it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface LiveCli {
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<CliRun>;
  signalGroup(sig: NodeJS.Signals): void;
}

export function startCli(bin: string, args: readonly string[], opts: { cwd: string; env: Record<string, string> }): LiveCli {
  const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.on('error', (err) => resolve({ code: -1, signal: null, stdout, stderr: stderr + String(err) }));
  });
  const pid = child.pid ?? -1;
  return {
    child,
    pid,
    output: () => stdout + stderr,
    exited,
    signalGroup: (sig) => {
      try {
        process.kill(-pid, sig);
      } catch {
        // already gone
      }
    },
  };
}

export async function runCli(bin: string, args: readonly string[], opts: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<CliRun> {
  const live = startCli(bin, args, opts);
  const timer = setTimeout(() => live.signalGroup('SIGKILL'), opts.timeoutMs ?? 90_000);
  const run = await live.exited;
  clearTimeout(timer);
  return run;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of live processes whose command line or cwd lies in the sandbox (daemons a CLI left behind, say). */
export function sandboxPids(root: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number.parseInt(name, 10);
    if (!Number.isSafeInteger(pid) || pid === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        // not ours to read
      }
      if (cmd.includes(root) || cwd === root || cwd.startsWith(`${root}/`)) out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}

/** SIGKILLs, by pid, every process this sandbox still has (all started by this test). */
export function killSandboxProcesses(root: string): number[] {
  const pids = sandboxPids(root);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  return pids;
}
