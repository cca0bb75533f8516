// Runs `npm run demo`'s script as a newcomer does (node with tsx, from the project root), and finds what it leaves behind.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DEMO = fileURLToPath(new URL('../../examples/demo.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** How a demo run ended and what it printed. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the demo; `onLine` may act on stdout as it arrives (e.g. send a signal). */
export function demo(onLine: (stdout: string, pid: number) => void = () => undefined): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', DEMO], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
    onLine(stdout, child.pid ?? -1);
  });
  child.stderr.on('data', (b: Buffer) => void (stderr += b.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** The sandbox directory the demo printed. */
export const sandboxOf = (stdout: string): string => /sandbox (\/\S+)/.exec(stdout)?.[1] ?? '<no sandbox line>';

/** Every live process whose command line or cwd lies in the sandbox (the fake agents and herdr run from its bin dir). */
export function processesIn(sandbox: string): string[] {
  if (!existsSync('/proc/self/cmdline')) return [];
  const out: string[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes(sandbox)) out.push(`${pid} ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
