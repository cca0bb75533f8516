// `npm run demo` stopped by a SIGINT in the middle of its reset: it stops after the step in flight, exits 130 and leaves
// no sandbox and no process behind. Split from demo.test.ts (whose verdict is the demo's promised duration); it is in the
// serial group too: its purge step starts a holder naming a real fixture's fixed id, which another file's in-use check
// of that fixture would see (vitest.config.ts).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demo, processesIn, sandboxOf } from '../helpers/demo-run.js';

describe('npm run demo', () => {
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
