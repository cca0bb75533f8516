import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { freshId } from '../../../helpers/adapter-agy-files.js';
import { HERMES_SCHEMA, sessionSql, writeHermesDb } from '../../../helpers/adapter-hermes-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { startSleeper, stopAll } from '../../../helpers/proc-children.js';
import { tsChildArgs } from '../../../helpers/ts-child.js';

const ROOT = join(import.meta.dirname, '../../../..');
const PROBE = join(ROOT, 'test/helpers/adapter-agy-probe.ts');
const run = promisify(execFile);

let dir: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-inuse-'));
});
afterEach(async () => {
  await stopAll();
  await dispose();
});
afterAll(() => stopAll());

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['ANTIGRAVITY_CONVERSATION_ID', 'CLAUDE_CODE_SESSION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID', 'CODEX_THREAD_ID', 'CODEX_SESSION_ID', 'HERMES_HOME']) delete env[k];
  return { ...env, ...extra };
}

describe('hermes in use, with real processes', () => {
  it('a live process naming the id counts; a live process holding state.db open with the id nowhere does not (every Hermes process holds it)', async () => {
    const home = join(dir, 'home');
    const db = join(home, '.hermes', 'state.db');
    const id = freshId();
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(id, dir, 1, 1)]);
    const h = new HermesAdapter(nodePorts({ env: cleanEnv() }));
    const ctx = { workspace: dir, home: home };
    expect(await h.conversationInUse(id, ctx)).toBe(false);
    const named = await startSleeper({ marker: id });
    expect((await h.inUseHolders(id, ctx)).map((x) => [x.pid, x.signal])).toEqual([[named.pid, 'command-line']]);
    await stopAll();
    const holder = await startSleeper({ hold: db });
    expect(holder.pid).toBeGreaterThan(0);
    expect(await h.inUseHolders(id, ctx)).toEqual([]);
    await stopAll();
    expect(await h.conversationInUse(id, ctx)).toBe(false);
  });

  it('the caller\'s HERMES_SESSION_ID, computed in a real child', async () => {
    const home = join(dir, 'home');
    const id = freshId();
    writeHermesDb(join(home, '.hermes', 'state.db'), [...HERMES_SCHEMA, ...sessionSql(id, dir, 1, 1)]);
    const { stdout } = await run(process.execPath, [...tsChildArgs(PROBE), 'hermes', home, id], { cwd: ROOT, env: cleanEnv({ HERMES_SESSION_ID: id }), timeout: 60_000 });
    expect(JSON.parse(stdout.trim())).toEqual({ inUse: true, signals: ['session-env'], details: ['HERMES_SESSION_ID'] });
  });
});
