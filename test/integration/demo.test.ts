// `npm run demo` as a newcomer runs it: a subprocess that must exit 0 with every step, the reset table and "Done in", leave
// no sandbox and no process behind — also when a SIGINT arrives in the middle of the reset.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../../examples/demo.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Runs the demo; `onLine` may act on stdout as it arrives (e.g. send a signal).
function demo(onLine: (stdout: string, pid: number) => void = () => undefined): Promise<Run> {
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

const sandboxOf = (stdout: string): string => /sandbox (\/\S+)/.exec(stdout)?.[1] ?? '<no sandbox line>';

// Every live process whose command line or cwd lies in the sandbox (the fake agents and herdr run from its bin dir).
function processesIn(sandbox: string): string[] {
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

const TITLES = [
  '[1] Sandbox: three homes written by the real CLIs',
  '[2] Discover:',
  '[3] Pin: rows registered in team/.mam/agent-sessions.yaml',
  '[4] Status (mam status)',
  '[5] Purge refused:',
  '[6] Purge for real:',
  '[7] Status again:',
  '[8] Reset sandbox: three fake agents',
  '[9] Reset, dry run',
  '[10] Reset (mam reset --yes)',
];

describe('npm run demo', () => {
  it('runs every step, prints the reset table and "Done in", and leaves nothing behind', async () => {
    const run = await demo();
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const at = TITLES.map((t) => run.stdout.indexOf(t));
    expect(at.every((i) => i >= 0), `missing: ${TITLES.filter((_, i) => at[i]! < 0).join(' | ')}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(run.stdout).toMatch(/reviewer-claude-02: pinUnclaimed \S+ → claimed-by-other-row/);
    expect(run.stdout).toMatch(/→ in-use, exit 4/);
    expect(run.stdout).toMatch(/\(open-file: \.codex\/sessions\//);
    expect(run.stdout).toMatch(/tree snapshot: \d+ entries, identical after/);
    const header = run.stdout.split('\n').findIndex((l) => /^\s+NAME\s+AGENT\s+OLD_ID\s+NEW_ID\s+RECORDED\s+NEW!=OLD\s+STATE$/.test(l));
    expect(header).toBeGreaterThan(0);
    const rows = run.stdout.split('\n').slice(header + 1, header + 4).map((l) => l.trim().split(/\s+/));
    expect(rows.map((r) => [r[0], r[1], r.slice(4)])).toEqual([
      ['reviewer-claude-01', 'claude', ['yes', 'yes', 'done']],
      ['coder-codex-01', 'codex', ['yes', 'yes', 'done']],
      ['tester-opencode-01', 'opencode', ['yes', 'yes', 'done']],
    ]);
    for (const r of rows) expect(r[2]).not.toBe(r[3]);
    const done = /\nDone in (\d+\.\d) s\.\n$/.exec(run.stdout);
    expect(done, run.stdout.slice(-200)).not.toBeNull();
    expect(Number(done?.[1])).toBeLessThan(30);
    const sandbox = sandboxOf(run.stdout);
    expect(sandbox).toContain('mam-demo-');
    expect(existsSync(sandbox)).toBe(false);
    expect(processesIn(sandbox)).toEqual([]);
  }, 120_000);

  it('on SIGINT in the middle of the reset: stops after the step in flight, exit 130, sandbox and agents gone', async () => {
    let sent = false;
    const run = await demo((stdout, pid) => {
      if (!sent && stdout.includes('reset [reviewer-claude-01]: stopping the session')) {
        sent = true;
        process.kill(pid, 'SIGINT');
      }
    });
    expect(sent, run.stdout).toBe(true);
    expect(run.code, run.stderr + run.stdout).toBe(130);
    expect(run.stderr).toContain('demo: stopped by SIGINT; sandbox removed, every agent ended');
    expect(run.stdout).not.toContain('Done in');
    const sandbox = sandboxOf(run.stdout);
    expect(existsSync(sandbox)).toBe(false);
    expect(processesIn(sandbox)).toEqual([]);
  }, 120_000);
});
