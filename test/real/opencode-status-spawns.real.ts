// The real OpenCode 1.18.33 on PATH: a status of five opencode rows (resumeStates on fresh ports, as `mam status` runs)
// spawns `opencode debug paths` once, not once per row (regression: 5 spawns, 3.45 s).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodePorts, resumeStates, type SessionRow } from '../../src/index.js';
import { realCli } from './support/real-clis.js';

const cli = realCli('opencode');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-real-oc-status-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('status of five opencode rows with the real opencode on PATH', () => {
  it('runs `opencode debug paths` once', async () => {
    const home = join(root, 'home');
    const bin = join(root, 'bin');
    const log = join(root, 'spawns.log');
    for (const d of [home, bin]) mkdirSync(d);
    writeFileSync(log, '');
    writeFileSync(join(bin, 'opencode'), `#!/bin/sh\necho "$@" >> '${log}'\nexec '${cli.bin}' "$@"\n`);
    chmodSync(join(bin, 'opencode'), 0o755);
    const env = { HOME: home, PATH: `${bin}:/usr/bin:/bin`, TMPDIR: tmpdir() };
    const rows = [1, 2, 3, 4, 5].map((n) => ({ name: `coder-opencode-${n}`, agent: 'opencode', status: 'running', role: 'coder', opencode_session_id_own: `ses_${String(n).repeat(26)}`, pane: { cwd: root } }) as unknown as SessionRow);
    const states = await resumeStates(rows, { workspace: root, home, env, ports: nodePorts({ env }) });
    expect(states).toEqual(['no', 'no', 'no', 'no', 'no']);
    expect(readFileSync(log, 'utf8').split('\n').filter((l) => l !== '')).toEqual(['debug paths']);
  });
});
