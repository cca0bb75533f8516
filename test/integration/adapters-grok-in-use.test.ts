import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../src/adapters/grok/grok-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { freshId } from '../helpers/adapter-agy-files.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { startSleeper, stopAll } from '../helpers/proc-children.js';

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
    const ctx = { workspace: dir, homeDir: dir };
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
    expect(await grok.authOk({ workspace: dir, homeDir: dir, env: { PATH: `${bin}:/usr/bin:/bin` } })).toBe(ok);
    expect(await grok.authOk({ workspace: dir, homeDir: dir, env: { PATH: join(dir, 'empty') } })).toBe(false);
  });
});
