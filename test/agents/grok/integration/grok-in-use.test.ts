import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { freshId } from '../../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { startSleeper, stopAll } from '../../../helpers/proc-children.js';
import { tsChildArgs } from '../../../helpers/ts-child.js';

const ROOT = join(import.meta.dirname, '../../../..');
const CHILD = join(ROOT, 'test/helpers/adapter-grok-in-use-child.ts');
const run = promisify(execFile);

let dir: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-it-'));
});
afterEach(async () => {
  await stopAll();
  await dispose();
});
afterAll(() => stopAll());

describe('grok with real processes', () => {
  it('a live process naming the id (upper case) is in use; gone, it is not', async () => {
    const id = freshId();
    const grok = new GrokAdapter(nodePorts({ env: {} }));
    const ctx = { workspace: dir, home: dir };
    expect(await grok.conversationInUse(id, ctx)).toBe(false);
    const holder = await startSleeper({ marker: id.toUpperCase() });
    expect((await grok.inUseHolders(id, ctx)).map((h) => [h.pid, h.signal])).toEqual([[holder.pid, 'command-line']]);
    await stopAll();
    expect(await grok.conversationInUse(id, ctx)).toBe(false);
  });

  it.each([
    ['exit 0', true],
    ['exit 1', false],
  ])('authOk runs the grok on the context PATH: %s → %s', async (body, ok) => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'grok'), `#!/bin/sh\n[ "$1" = "--version" ] || exit 9\n[ "$HOME" = "${dir}" ] || exit 8\n${body}\n`);
    chmodSync(join(bin, 'grok'), 0o755);
    const grok = new GrokAdapter(nodePorts({ env: {} }));
    expect(await grok.authOk({ workspace: dir, home: dir, env: { PATH: `${bin}:/usr/bin:/bin` } })).toBe(ok);
    expect(await grok.authOk({ workspace: dir, home: dir, env: { PATH: join(dir, 'empty') } })).toBe(false);
  });

  it('a purge run from a grok tool shell (GROK_AGENT=1, no session id) is refused through the grok ancestor\'s active_sessions.json entry', async () => {
    const id = freshId();
    const home = join(dir, 'home');
    mkdirSync(join(home, '.grok'), { recursive: true });
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // A stand-in `grok` TUI: registers itself (its own pid) for the id, with an opened_at its start cannot match (so only
    // the ancestor rule can tell), then runs the caller as its child, as grok runs a tool shell.
    writeFileSync(join(bin, 'grok'), `#!/bin/sh
printf '[{"session_id":"%s","pid":%s,"cwd":"/x","opened_at":"2020-01-01T00:00:00Z"}]' "$MAM_TEST_GROK_SESSION" "$$" > "${home}/.grok/active_sessions.json"
"$@"
`);
    chmodSync(join(bin, 'grok'), 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, GROK_AGENT: '1', MAM_TEST_GROK_SESSION: id, MAM_TEST_GROK_ID: id };
    delete env['GROK_SESSION_ID'];
    const { stdout } = await run(join(bin, 'grok'), [process.execPath, ...tsChildArgs(CHILD), home], { cwd: ROOT, env, timeout: 60_000 });
    const got = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { self: number; ppid: number; holders: Array<{ pid: number; signal: string }> };
    expect(got.holders).toEqual([expect.objectContaining({ pid: got.ppid, signal: 'session-env' })]);
    // Another id is not the ancestor's session: free.
    const other = await run(join(bin, 'grok'), [process.execPath, ...tsChildArgs(CHILD), home], { cwd: ROOT, env: { ...env, MAM_TEST_GROK_ID: freshId() }, timeout: 60_000 });
    expect((JSON.parse(other.stdout.trim().split('\n').pop() ?? '') as { holders: unknown[] }).holders).toEqual([]);
  }, 60_000);
});
