// Issue 31: `mam reset --yes`, `reconcile --apply` and `orc` all reached SessionRegistry.update() through a linked mirror.
// Now a registry file that is not the registry's own ends each with one line on stderr naming the path and exit 1,
// before anything is written (in process, through `main`).
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/mam.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { foreignRows, makeForeignDb } from '../helpers/registry-links.js';

describe('a registry file that is not the registry\'s own: one line, exit 1, nothing written', () => {
  let base: string;
  let dispose: () => Promise<void>;
  let ws: string;
  let victim: string;
  let mirror: string;
  beforeEach(async () => {
    ({ dir: base, dispose } = await makeTempDir('mam-cli-reg-refused-'));
    ws = join(base, 'ws');
    mkdirSync(join(ws, '.mam'), { recursive: true });
    victim = join(base, 'other-app.db');
    makeForeignDb(victim);
    mirror = join(ws, '.mam', 'agent-sessions.db');
    // A relative link, as a cloned repository would carry it.
    symlinkSync('../../other-app.db', mirror);
  });
  afterEach(async () => {
    await dispose();
  });

  async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(argv, { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
    return { code, out, err };
  }

  it.each([
    ['reconcile', ['reconcile', '--apply']],
    ['orc', ['orc', '--uuid', 'e7800005-0000-4000-8000-000000000005']],
    ['reset', ['reset', '--yes']],
  ])('mam %s: exit 1, one line naming the mirror, the other database untouched', async (cmd, argv) => {
    const before = readFileSync(victim);
    const withHome = cmd === 'reset' ? [...argv, '--workspace', ws] : [...argv, '--workspace', ws, '--home', base];
    const r = await run(withHome);
    expect(r.code).toBe(1);
    expect(r.err.startsWith(`mam ${cmd}: refusing the session registry file ${mirror}: it is a symbolic link`)).toBe(true);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(readFileSync(victim)).toEqual(before);
    expect(foreignRows(victim)).toBe(3);
  });
});
