// `npm run demo` as a newcomer runs it: a subprocess that must exit 0 with every step, the reset table and "Done in", leave
// no sandbox and no process behind. It runs in the serial group: its promised duration is judged on an idle machine. The
// run stopped by a SIGINT (demo-sigint.test.ts) promises no duration and runs with the rest.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demo, processesIn, sandboxOf } from '../helpers/demo-run.js';

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
});
