import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';

/** A real zombie: `pid` has exited and its parent `parentPid` has not reaped it yet. */
export interface TestZombie {
  pid: number;
  parentPid: number;
  /** Lets the parent reap the zombie and exit, and waits for both (nothing is left to pid 1). */
  release(): Promise<void>;
}

// The parent forks a child that exits at once, prints the child's pid, and reaps it only once its stdin closes. perl
// never reaps on its own; a POSIX sh that waits only in `wait` (dash) is the fallback.
const PERL = 'my $p = fork; die "fork: $!" unless defined $p; if (!$p) { exit 0 } $| = 1; print "$p\\n"; my $x = <STDIN>; waitpid($p, 0);';
const SH = 'sleep 0 & echo $!; read x; wait';

function psState(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }).trim();
  } catch {
    return '';
  }
}

function hasPerl(): boolean {
  return ['/usr/bin/perl', '/bin/perl', '/usr/local/bin/perl'].some((p) => existsSync(p));
}

async function tryStart(file: string, args: string[]): Promise<TestZombie | null> {
  const parent: ChildProcess = spawn(file, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(parent, 'exit');
  let out = '';
  parent.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const release = async (): Promise<void> => {
    parent.stdin?.end('\n');
    const timer = setTimeout(() => parent.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const pid = Number(out.trim().split('\n')[0]);
    // The state comes from ps, not from the port under test.
    if (Number.isSafeInteger(pid) && pid > 0 && psState(pid).startsWith('Z')) return { pid, parentPid: parent.pid ?? 0, release };
    await new Promise((r) => setTimeout(r, 20));
  }
  await release();
  return null;
}

/** Starts a parent holding one unreaped child; rejects when neither perl nor sh can make one within 5 s. */
export async function startZombie(): Promise<TestZombie> {
  const z = (hasPerl() ? await tryStart('perl', ['-e', PERL]) : null) ?? (await tryStart('sh', ['-c', SH]));
  if (z === null) throw new Error('could not make a zombie process (no perl, and sh reaps its children on its own)');
  return z;
}
