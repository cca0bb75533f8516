import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A real child process started by a test, stopped by {@link stopAll}. */
export interface TestChild {
  pid: number;
  child: ChildProcess;
  /** Collected stdout. */
  out(): string;
}

const live = new Set<ChildProcess>();

// Opens MAM_TEST_HOLD (when set) so the child holds it; the path travels in the environment, never on the command line.
const SLEEPER = [
  "const fs = require('node:fs');",
  "if (process.env.MAM_TEST_HOLD) fs.openSync(process.env.MAM_TEST_HOLD, 'r');",
  "process.stdout.write('ready\\n');",
  'setInterval(() => {}, 1 << 30);',
].join(' ');

/** Starts `file args`, waits until it prints a line containing `ready` (or exits), and tracks it for {@link stopAll}. */
export async function startChild(file: string, args: readonly string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; waitFor?: string } = {}): Promise<TestChild> {
  const child = spawn(file, [...args], { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let out = '';
  const marker = opts.waitFor ?? 'ready';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes(marker)) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`child ${file} exited (${code ?? signal}) before "${marker}": ${out}`)));
  });
  if (child.pid === undefined) throw new Error(`no pid for ${file}`);
  return { pid: child.pid, child, out: () => out };
}

/** A `node -e` sleeper with `marker` on its command line, holding `hold` open when given. */
export function startSleeper(opts: { marker?: string; hold?: string } = {}): Promise<TestChild> {
  const env = { ...process.env, ...(opts.hold === undefined ? {} : { MAM_TEST_HOLD: opts.hold }) };
  if (opts.hold === undefined) delete env['MAM_TEST_HOLD'];
  return startChild(process.execPath, ['-e', SLEEPER, ...(opts.marker === undefined ? [] : ['--', '--marker', opts.marker])], { env });
}

/** The pid of a process that has exited and been reaped. */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await once(child, 'exit');
  if (pid === undefined) throw new Error('no pid');
  return pid;
}

/** Kills and reaps every child started by this module. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...live].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }),
  );
}
